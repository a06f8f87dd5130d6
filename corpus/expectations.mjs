// Matching the corpus findings against corpus/expected.json, and the corpus manifest against the shared package list
// and the packages added for issue 32 (corpus/issue-32-packages.json).

/** The reported line's text, trimmed: the anchor that identifies a finding in expected.json. */
export function anchorOf(text, line) {
  return (text.split(/\r\n|\r|\n|\u2028|\u2029/)[line - 1] ?? '').trim().slice(0, 200);
}

function findingKey({ rule, file, anchor }) {
  return JSON.stringify([rule, file, anchor]);
}

/**
 * Findings are { rule, file, anchor, … }; expected entries are the same plus `verdict`, `reason` and an optional
 * `count` (default 1: one entry stands for that many findings on lines with the same text). Returns the findings
 * no entry accounts for and the entries (with how many of their findings are missing) no finding matched.
 */
export function compareWithExpected(findings, expected) {
  const remaining = new Map();
  for (const entry of expected) {
    const key = findingKey(entry);
    remaining.set(key, { entry, left: (remaining.get(key)?.left ?? 0) + (entry.count ?? 1) });
  }
  const unrecorded = [];
  for (const finding of findings) {
    const slot = remaining.get(findingKey(finding));
    if (slot !== undefined && slot.left > 0) slot.left -= 1;
    else unrecorded.push(finding);
  }
  const missing = [...remaining.values()].filter((slot) => slot.left > 0);
  return { unrecorded, missing };
}

/**
 * Known misses are { rule, file, anchors, reason }: a finding that reading the code expects and Locksmith does not
 * report, on any of the lines whose trimmed text is in `anchors`. Returns the misses some finding now matches (to
 * be promoted to findings) and the ones still missed.
 */
export function checkKnownMisses(findings, knownMisses) {
  const nowFound = [];
  const stillMissed = [];
  for (const miss of knownMisses) {
    const found = findings.some(
      (finding) => finding.rule === miss.rule && finding.file === miss.file && miss.anchors.includes(finding.anchor),
    );
    (found ? nowFound : stillMissed).push(miss);
  }
  return { nowFound, stillMissed };
}

/**
 * Real-code recall: of the findings that reading the code expects (expected.json entries marked
 * `expectedByReading`, counted with their `count`, plus the known misses), how many Locksmith reports.
 */
export function recallOf(expected, missing, knownMisses, nowFound) {
  const lost = new Map(missing.map(({ entry, left }) => [entry, left]));
  let total = 0;
  let found = 0;
  for (const entry of expected) {
    if (entry.expectedByReading !== true) continue;
    total += entry.count ?? 1;
    found += (entry.count ?? 1) - (lost.get(entry) ?? 0);
  }
  total += knownMisses.length;
  found += nowFound.length;
  return { found, total };
}

function wantedPackages(sharedList) {
  const wanted = {};
  for (const [group, packages] of Object.entries(sharedList)) {
    if (group !== 'about') Object.assign(wanted, packages);
  }
  return wanted;
}

/**
 * One line per problem with corpus/package.json's dependencies: they must be every package of
 * shared/corpus/packages.json at its version (`sharedList`, null when it is not beside the repository: then
 * that part is not checked) plus every package of corpus/issue-32-packages.json at its version, and nothing else.
 */
export function manifestProblems(manifest, sharedList, issue32List) {
  const shared = sharedList === null ? null : wantedPackages(sharedList);
  const added = Object.fromEntries(Object.entries(issue32List.packages).map(([name, { version }]) => [name, version]));
  const dependencies = manifest.dependencies ?? {};
  const problems = [];
  for (const [name, version] of Object.entries(shared ?? {})) {
    if (dependencies[name] !== version) {
      problems.push(`corpus/package.json has ${name}@${dependencies[name] ?? '(missing)'}, shared/corpus/packages.json lists ${version}`);
    }
  }
  for (const [name, version] of Object.entries(added)) {
    if (shared !== null && name in shared) {
      problems.push(`corpus/issue-32-packages.json lists ${name}, which shared/corpus/packages.json already lists`);
    } else if (dependencies[name] !== version) {
      problems.push(`corpus/package.json has ${name}@${dependencies[name] ?? '(missing)'}, corpus/issue-32-packages.json lists ${version}`);
    }
  }
  if (shared !== null) {
    for (const name of Object.keys(dependencies)) {
      if (!(name in shared) && !(name in added)) {
        problems.push(`corpus/package.json has ${name}, which neither shared/corpus/packages.json nor corpus/issue-32-packages.json lists`);
      }
    }
  }
  return problems;
}
