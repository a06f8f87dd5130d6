// Matching the corpus findings against corpus/expected.json, and the corpus manifest against the shared package list.

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

/** One line per difference between corpus/package.json's dependencies and shared/corpus/packages.json. */
export function differencesFromSharedList(manifest, sharedList) {
  const wanted = {};
  for (const [group, packages] of Object.entries(sharedList)) {
    if (group !== 'about') Object.assign(wanted, packages);
  }
  const dependencies = manifest.dependencies ?? {};
  const differences = [];
  for (const [name, version] of Object.entries(wanted)) {
    if (dependencies[name] !== version) {
      differences.push(
        `corpus/package.json has ${name}@${dependencies[name] ?? '(missing)'}, shared/corpus/packages.json lists ${version}`,
      );
    }
  }
  for (const name of Object.keys(dependencies)) {
    if (!(name in wanted)) differences.push(`corpus/package.json has ${name}, which shared/corpus/packages.json does not list`);
  }
  return differences;
}
