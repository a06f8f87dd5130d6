// Matches Locksmith's findings to an entry's expected labels, and adds the matches up per preset and per rule.

/** How far a finding may sit from a label's `line` when the label gives no `lines` span. */
export const LINE_TOLERANCE = 1;

/** Whether a finding on `line` can stand for `label`: inside its `lines` span, or within the tolerance of its `line`. */
export function labelCovers(label, line) {
  if (Array.isArray(label.lines)) return line >= label.lines[0] && line <= label.lines[1];
  return Math.abs(line - label.line) <= LINE_TOLERANCE;
}

/**
 * Pairs findings `{ rule, file, line, ... }` with labels `{ rule, file, line, lines?, reason }` one to
 * one: same rule, same file, the finding's line covered by the label. The pairing is a maximum
 * matching (augmenting paths), so a finding that could stand for two labels never costs a hit
 * another finding could have made. A finding on a `silent` line `{ file, line, why }` is a false
 * positive whatever it could match.
 *
 * Returns `{ hits: [{ label, finding }], misses: [label], falsePositives: [{ finding, silent? }] }`.
 */
export function matchFindings({ labels, findings, silent = [] }) {
  const silentByLine = new Map(silent.map((line) => [`${line.file}\0${line.line}`, line]));
  const ordered = [...findings].sort(compareFindings);
  const candidates = ordered.map((finding) => {
    if (silentByLine.has(`${finding.file}\0${finding.line}`)) return [];
    return labels
      .map((label, index) => ({ label, index }))
      .filter(({ label }) => label.rule === finding.rule && label.file === finding.file && labelCovers(label, finding.line))
      .sort(
        (left, right) => Math.abs(left.label.line - finding.line) - Math.abs(right.label.line - finding.line) || left.index - right.index,
      )
      .map(({ index }) => index);
  });

  const findingOfLabel = new Array(labels.length).fill(-1);
  const augment = (findingIndex, visited) => {
    for (const labelIndex of candidates[findingIndex]) {
      if (visited.has(labelIndex)) continue;
      visited.add(labelIndex);
      if (findingOfLabel[labelIndex] === -1 || augment(findingOfLabel[labelIndex], visited)) {
        findingOfLabel[labelIndex] = findingIndex;
        return true;
      }
    }
    return false;
  };
  for (let findingIndex = 0; findingIndex < ordered.length; findingIndex += 1) augment(findingIndex, new Set());

  const matched = new Set(findingOfLabel.filter((index) => index !== -1));
  const hits = [];
  const misses = [];
  labels.forEach((label, labelIndex) => {
    if (findingOfLabel[labelIndex] === -1) misses.push(label);
    else hits.push({ label, finding: ordered[findingOfLabel[labelIndex]] });
  });
  const falsePositives = ordered
    .filter((_, index) => !matched.has(index))
    .map((finding) => {
      const silentLine = silentByLine.get(`${finding.file}\0${finding.line}`);
      return silentLine === undefined ? { finding } : { finding, silent: silentLine };
    });
  return { hits, misses, falsePositives };
}

function compareFindings(left, right) {
  return (
    left.file.localeCompare(right.file) ||
    left.line - right.line ||
    (left.column ?? 0) - (right.column ?? 0) ||
    left.rule.localeCompare(right.rule)
  );
}

/**
 * Splits an entry's labels for one preset: `counted` (the rule is on in the preset), `off` (shipped,
 * but off in this preset), `notShipped` (a catalogue rule the plugin does not ship).
 */
export function labelsForPreset(labels, { shippedRuleIds, enabledRuleIds }) {
  const counted = [];
  const off = [];
  const notShipped = [];
  for (const label of labels) {
    if (!shippedRuleIds.has(label.rule)) notShipped.push(label);
    else if (enabledRuleIds.has(label.rule)) counted.push(label);
    else off.push(label);
  }
  return { counted, off, notShipped };
}

/** An empty tally: hits, false positives and misses. */
export function emptyTally() {
  return { tp: 0, fp: 0, fn: 0 };
}

/** Precision and recall of a tally, `null` where nothing was reported (precision) or nothing expected (recall). */
export function withRatios(tally) {
  return {
    ...tally,
    precision: tally.tp + tally.fp === 0 ? null : tally.tp / (tally.tp + tally.fp),
    recall: tally.tp + tally.fn === 0 ? null : tally.tp / (tally.tp + tally.fn),
  };
}

/** Adds one match result to a preset's total and per-rule tallies. */
export function addToTallies(total, byRule, { hits, misses, falsePositives }) {
  const ruleTally = (rule) => {
    if (!byRule.has(rule)) byRule.set(rule, emptyTally());
    return byRule.get(rule);
  };
  for (const { label } of hits) {
    total.tp += 1;
    ruleTally(label.rule).tp += 1;
  }
  for (const label of misses) {
    total.fn += 1;
    ruleTally(label.rule).fn += 1;
  }
  for (const { finding } of falsePositives) {
    total.fp += 1;
    ruleTally(finding.rule).fp += 1;
  }
}
