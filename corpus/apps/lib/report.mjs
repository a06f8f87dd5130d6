// Prints a score (the object score.mjs builds, also what --json prints) as text.

export function formatRatio(value) {
  return value === null ? 'n/a' : value.toFixed(2);
}

function place(label) {
  return Array.isArray(label.lines)
    ? `${label.file}:${label.line} (lines ${label.lines[0]}-${label.lines[1]})`
    : `${label.file}:${label.line}`;
}

/** The text report, as lines. */
export function formatText(score) {
  const lines = [];
  const { entries } = score;
  lines.push(`Locksmith apps corpus: ${score.entriesDirectory}`);
  lines.push(`Plugin ${score.plugin.version} from ${score.repositoryRoot}; snapshots from ${score.mirrorDirectory}`);
  lines.push(
    `Entries: ${entries.files} files; ${entries.finished} labelled, ${entries.inProgress} still being labelled (skipped), ` +
      `${entries.invalid.length} invalid, ${entries.unscored.length} unscored, ${entries.scored} scored` +
      (entries.selected === undefined ? '' : ` (--entry ${entries.selected})`),
  );
  for (const warning of score.warnings) lines.push(`Warning: ${warning}`);
  if (entries.invalid.length > 0) {
    lines.push('', 'Invalid entries (not scored):');
    for (const invalid of entries.invalid) lines.push(`  ${invalid.file}: ${invalid.problems.join('; ')}`);
  }
  if (entries.unscored.length > 0) {
    lines.push('', 'Unscored entries (not counted as misses):');
    for (const unscored of entries.unscored) lines.push(`  ${unscored.repository}: ${unscored.reason}`);
  }
  if (score.notShipped.length > 0) {
    lines.push('', `Not scored (rule not shipped): ${score.notShipped.length} label(s)`);
    for (const label of score.notShipped) lines.push(`  ${label.repository} ${place(label)} ${label.rule}: ${label.reason}`);
  }
  for (const [preset, result] of Object.entries(score.presets)) {
    lines.push('');
    lines.push(
      `${preset}: ${result.entriesScored} ${result.entriesScored === 1 ? 'entry' : 'entries'}, tp ${result.tp}, fp ${result.fp}, fn ${result.fn}, ` +
        `precision ${formatRatio(result.precision)}, recall ${formatRatio(result.recall)}` +
        (result.offInPreset > 0 ? ` (${result.offInPreset} label(s) of rules off in ${preset} not counted)` : ''),
    );
    const ruleIds = Object.keys(result.rules);
    if (ruleIds.length > 0) {
      const width = Math.max(4, ...ruleIds.map((id) => id.length));
      lines.push(`  ${'rule'.padEnd(width)}    tp    fp    fn  precision  recall`);
      for (const id of ruleIds) {
        const rule = result.rules[id];
        lines.push(
          `  ${id.padEnd(width)}  ${String(rule.tp).padStart(4)}  ${String(rule.fp).padStart(4)}  ${String(rule.fn).padStart(4)}` +
            `  ${formatRatio(rule.precision).padStart(9)}  ${formatRatio(rule.recall).padStart(6)}`,
        );
      }
    }
    if (result.misses.length > 0) {
      lines.push(`  misses (${result.misses.length}):`);
      for (const miss of result.misses) lines.push(`    ${miss.repository} ${place(miss)} ${miss.rule}: ${miss.reason}`);
    }
    if (result.falsePositives.length > 0) {
      lines.push(`  false positives (${result.falsePositives.length}):`);
      for (const falsePositive of result.falsePositives) {
        const silent = falsePositive.silent === undefined ? '' : ` [on a silent line: ${falsePositive.silent}]`;
        lines.push(
          `    ${falsePositive.repository} ${falsePositive.file}:${falsePositive.line} ${falsePositive.rule}: ${falsePositive.message}${silent}`,
        );
      }
    }
    if (result.failures.length > 0) {
      lines.push(`  not scored in ${preset} (locksmith failed):`);
      for (const failure of result.failures) lines.push(`    ${failure.repository}: ${failure.reason}`);
    }
    if (result.notices.length > 0) {
      lines.push(`  files not linted (parse errors, ignored files):`);
      for (const notice of result.notices) lines.push(`    ${notice.repository} ${notice.notice}`);
    }
  }
  if (score.perEntry.length > 0) {
    lines.push('', `Per entry (tp/fp/fn): ${Object.keys(score.presets).join(', ')}`);
    const width = Math.max(...score.perEntry.map((row) => row.repository.length));
    for (const row of score.perEntry) {
      const cells = Object.keys(score.presets).map((preset) => {
        const tally = row.presets[preset];
        return tally === undefined ? 'failed'.padStart(8) : `${tally.tp}/${tally.fp}/${tally.fn}`.padStart(8);
      });
      lines.push(`  ${row.repository.padEnd(width)}  ${cells.join('  ')}`);
    }
  }
  return lines;
}
