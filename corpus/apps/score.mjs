#!/usr/bin/env node
// Scores Locksmith on the labelled application corpus: rebuilds each entry's files from its fetch snapshot, lints them with the repository's built CLI per preset, and matches the findings to the labels.
//
// A measurement, not a gate: it exits 0 whatever the figures, and non-zero only when it cannot run
// (bad arguments, no built plugin, no entries folder). See README.md.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { entrySlug, loadEntries, readCatalogueRuleIds, readReservedRepositories, validateEntry } from './lib/entries.mjs';
import { lintedFiles, loadPlugin, PRESETS, runLocksmith } from './lib/locksmith.mjs';
import { addToTallies, emptyTally, labelsForPreset, matchFindings, withRatios } from './lib/match.mjs';
import { formatText } from './lib/report.mjs';
import { extractFiles, findSnapshot } from './lib/snapshot.mjs';

const scriptDirectory = path.dirname(fileURLToPath(import.meta.url));

const USAGE = `Usage: node score.mjs [options]

Scores Locksmith on the labelled application corpus (entries/*.json). Needs fetch snapshots of the
entries' repositories (fetch github:owner/name in an agent session); exits 0 whatever the score.

  --entry <owner/name>  Score this entry only (repeatable)
  --preset <name>       Score this preset only: recommended, strict (repeatable; default both)
  --json                Print the score as JSON
  --validate            Only validate the entries
  --jobs <n>            Entries scored at once (default 2)
  --timeout <seconds>   Longest one locksmith run may take (default 600)
  --type-aware          Run locksmith with --type-aware (type information from the entry's tsconfig)
  --entries <dir>       Entry files (default: entries/ beside this script)
  --repo <dir>          Repository whose built plugin runs (default: two folders above this script)
  --mirror <dir>        Folder of fetch snapshots (default: $LOCKSMITH_MIRROR, else <repo>/../.mirror, else /work/.mirror)
  --checkout <dir>      Where entries' files are rebuilt (default: .checkout/ beside this script)
  --rules-md <file>     Rule catalogue (default: <repo>/../shared/spec/rules.md)
  --reserved <file>     Reserved repositories (default: <repo>/../shared/corpus/reserved.json)
  -h, --help            Show this help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      entry: { type: 'string', multiple: true },
      preset: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      validate: { type: 'boolean' },
      jobs: { type: 'string' },
      timeout: { type: 'string' },
      entries: { type: 'string' },
      repo: { type: 'string' },
      mirror: { type: 'string' },
      checkout: { type: 'string' },
      'rules-md': { type: 'string' },
      reserved: { type: 'string' },
      'type-aware': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return { help: true };
  const repositoryRoot = path.resolve(values.repo ?? path.join(scriptDirectory, '../..'));
  const work = process.env.WORK ?? '/work';
  const firstExisting = (candidates) => candidates.find((candidate) => fs.existsSync(candidate)) ?? candidates[0];
  const presets = values.preset ?? PRESETS;
  for (const preset of presets) if (!PRESETS.includes(preset)) throw new UsageError(`unknown preset ${preset} (${PRESETS.join(', ')})`);
  const jobs = Number(values.jobs ?? 2);
  const timeoutSeconds = Number(values.timeout ?? 600);
  if (!Number.isInteger(jobs) || jobs < 1) throw new UsageError('--jobs takes a positive integer');
  if (!(timeoutSeconds > 0)) throw new UsageError('--timeout takes a positive number of seconds');
  return {
    entries: values.entry,
    presets: PRESETS.filter((preset) => presets.includes(preset)),
    json: values.json === true,
    validateOnly: values.validate === true,
    jobs,
    timeoutMs: timeoutSeconds * 1000,
    typeAware: values['type-aware'] === true,
    entriesDirectory: path.resolve(values.entries ?? path.join(scriptDirectory, 'entries')),
    repositoryRoot,
    mirrorDirectory: path.resolve(
      values.mirror ?? process.env.LOCKSMITH_MIRROR ?? firstExisting([path.join(repositoryRoot, '../.mirror'), path.join(work, '.mirror')]),
    ),
    checkoutRoot: path.resolve(values.checkout ?? path.join(scriptDirectory, '.checkout')),
    rulesMd: path.resolve(
      values['rules-md'] ?? firstExisting([path.join(repositoryRoot, '../shared/spec/rules.md'), path.join(work, 'shared/spec/rules.md')]),
    ),
    reservedFile: path.resolve(
      values.reserved ??
        firstExisting([path.join(repositoryRoot, '../shared/corpus/reserved.json'), path.join(work, 'shared/corpus/reserved.json')]),
    ),
  };
}

class UsageError extends Error {}

/**
 * The CLI applies the nearest locksmith.json (or package.json "locksmith" key) above each file. An
 * empty one at the checkouts' root keeps whatever lies above them (this repository's own, one day)
 * from applying to the entries, while an entry's own configuration, when it lists one, still wins.
 */
function prepareCheckoutRoot(checkoutRoot) {
  fs.mkdirSync(checkoutRoot, { recursive: true });
  fs.writeFileSync(path.join(checkoutRoot, 'locksmith.json'), '{}\n');
}

/** Runs `work` on every item, at most `limit` at once, keeping the items' order in the results. */
async function mapWithLimit(items, limit, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Scores one valid entry: `{ repository, unscored? }` when its files cannot be rebuilt, else
 * `{ repository, presets: { [preset]: { match, off, notices } | { failure } }, notShipped }`.
 */
async function scoreEntry(entry, options, plugin) {
  const { repository } = entry;
  const fetchHint = `run fetch github:${repository} in an agent session`;
  const gitDirectory = findSnapshot(options.mirrorDirectory, repository);
  if (gitDirectory === undefined) return { repository, unscored: `no snapshot in ${options.mirrorDirectory}; ${fetchHint}` };
  const checkoutDirectory = path.join(options.checkoutRoot, entrySlug(repository));
  const extracted = await extractFiles({ gitDirectory, commit: entry.commit, files: entry.files, checkoutDirectory });
  if (!extracted.ok) {
    const hint = extracted.missingCommit === true ? `; ${fetchHint} (a shallow snapshot newer than the entry cannot give it)` : '';
    return { repository, unscored: `${extracted.reason}${hint}` };
  }
  const pastEnd = [...entry.expected, ...(entry.silent ?? [])].find((line) => {
    const last = Array.isArray(line.lines) ? line.lines[1] : line.line;
    return last > extracted.lineCounts.get(line.file);
  });
  if (pastEnd !== undefined) {
    return {
      repository,
      unscored: `${pastEnd.file}:${pastEnd.line} is past the end of the file (${extracted.lineCounts.get(pastEnd.file)} lines) at ${entry.commit.slice(0, 12)}`,
    };
  }

  const files = lintedFiles(entry.files);
  const presets = {};
  const notShipped = entry.expected.filter((label) => !plugin.shippedRuleIds.has(label.rule));
  for (const preset of options.presets) {
    const split = labelsForPreset(entry.expected, { shippedRuleIds: plugin.shippedRuleIds, enabledRuleIds: plugin.enabledRuleIds[preset] });
    const linted =
      files.length === 0
        ? { ok: true, findings: [], notices: [] }
        : await runLocksmith({
            cliBin: plugin.cliBin,
            checkoutDirectory,
            files,
            preset,
            timeoutMs: options.timeoutMs,
            typeAware: options.typeAware,
          });
    if (!linted.ok) {
      presets[preset] = { failure: linted.reason };
      continue;
    }
    presets[preset] = {
      match: matchFindings({ labels: split.counted, findings: linted.findings, silent: entry.silent ?? [] }),
      off: split.off.length,
      notices: linted.notices,
    };
  }
  return { repository, presets, notShipped };
}

/** Adds the entries' results up into the score that is printed (as text or JSON). */
function buildScore({ options, plugin, loaded, invalid, scored, warnings }) {
  const presets = {};
  for (const preset of options.presets) {
    const total = emptyTally();
    const byRule = new Map();
    const result = { entriesScored: 0, offInPreset: 0, misses: [], falsePositives: [], failures: [], notices: [] };
    for (const entryScore of scored) {
      const presetScore = entryScore.presets?.[preset];
      if (presetScore === undefined) continue;
      const { repository } = entryScore;
      if (presetScore.failure !== undefined) {
        result.failures.push({ repository, reason: presetScore.failure });
        continue;
      }
      result.entriesScored += 1;
      result.offInPreset += presetScore.off;
      addToTallies(total, byRule, presetScore.match);
      for (const miss of presetScore.match.misses) result.misses.push({ repository, ...miss });
      for (const { finding, silent } of presetScore.match.falsePositives) {
        result.falsePositives.push({ repository, ...finding, ...(silent === undefined ? {} : { silent: silent.why }) });
      }
      for (const notice of presetScore.notices) result.notices.push({ repository, notice });
    }
    const rules = Object.fromEntries([...byRule.keys()].sort().map((rule) => [rule, withRatios(byRule.get(rule))]));
    presets[preset] = { ...withRatios(total), ...result, rules };
  }
  const perEntry = scored
    .filter((entryScore) => entryScore.presets !== undefined)
    .map((entryScore) => ({
      repository: entryScore.repository,
      presets: Object.fromEntries(
        Object.entries(entryScore.presets)
          .filter(([, presetScore]) => presetScore.match !== undefined)
          .map(([preset, { match }]) => [preset, { tp: match.hits.length, fp: match.falsePositives.length, fn: match.misses.length }]),
      ),
    }));
  return {
    entriesDirectory: options.entriesDirectory,
    repositoryRoot: options.repositoryRoot,
    mirrorDirectory: options.mirrorDirectory,
    plugin: { version: plugin.version },
    warnings,
    entries: {
      files: loaded.length,
      finished: loaded.filter((item) => item.entry !== undefined).length,
      inProgress: loaded.filter((item) => item.inProgress).length,
      selected: options.entries?.join(', '),
      invalid,
      unscored: scored
        .filter((entryScore) => entryScore.unscored !== undefined)
        .map(({ repository, unscored }) => ({ repository, reason: unscored })),
      scored: perEntry.length,
    },
    notShipped: scored.flatMap((entryScore) =>
      (entryScore.notShipped ?? []).map((label) => ({ repository: entryScore.repository, ...label })),
    ),
    presets,
    perEntry,
  };
}

async function main(argv) {
  const options = parseOptions(argv);
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (!fs.existsSync(options.entriesDirectory)) throw new Error(`no entries folder ${options.entriesDirectory} (--entries)`);
  const plugin = loadPlugin(options.repositoryRoot);
  const warnings = [];
  const catalogue = readCatalogueRuleIds(options.rulesMd);
  if (catalogue === null) {
    warnings.push(
      `no rule catalogue at ${options.rulesMd} (--rules-md): a label's rule the plugin does not ship is taken as "not shipped", not checked against the catalogue`,
    );
  }
  const reserved = readReservedRepositories(options.reservedFile);
  if (reserved.size === 0) warnings.push(`no reserved list at ${options.reservedFile} (--reserved): entries are not checked against it`);

  const loaded = loadEntries(options.entriesDirectory);
  const invalid = [];
  const valid = [];
  const seen = new Map();
  const catalogueRuleIds = new Set([...(catalogue ?? []), ...plugin.shippedRuleIds]);
  for (const item of loaded) {
    const name = path.basename(item.file);
    if (item.inProgress) continue;
    if (item.problems !== undefined) {
      invalid.push({ file: name, problems: item.problems });
      continue;
    }
    // Without the catalogue, any rule id the plugin lacks passes here and is reported as not shipped.
    const labelRuleIds = Array.isArray(item.entry.expected)
      ? item.entry.expected.map((label) => label?.rule).filter((rule) => typeof rule === 'string')
      : [];
    const knownRuleIds = catalogue === null ? new Set([...catalogueRuleIds, ...labelRuleIds]) : catalogueRuleIds;
    const problems = validateEntry(item.entry, name, { knownRuleIds, reserved });
    const key = typeof item.entry.repository === 'string' ? item.entry.repository.toLowerCase() : undefined;
    if (key !== undefined && seen.has(key)) problems.push(`a second entry for ${item.entry.repository} (also ${seen.get(key)})`);
    if (key !== undefined && !seen.has(key)) seen.set(key, name);
    if (problems.length > 0) invalid.push({ file: name, repository: item.entry.repository, problems });
    else valid.push(item.entry);
  }

  let selected = valid;
  if (options.entries !== undefined) {
    const wanted = new Set(options.entries.map((name) => name.toLowerCase()));
    selected = valid.filter((entry) => wanted.has(entry.repository.toLowerCase()));
    const known = new Set(loaded.map((item) => item.entry?.repository?.toLowerCase()));
    for (const name of options.entries) {
      if (!known.has(name.toLowerCase())) warnings.push(`--entry ${name}: no finished entry by that name`);
    }
    const wantedInvalid = invalid.filter((item) => typeof item.repository === 'string' && wanted.has(item.repository.toLowerCase()));
    invalid.splice(0, invalid.length, ...wantedInvalid);
  }

  if (!options.validateOnly) prepareCheckoutRoot(options.checkoutRoot);
  const scored = options.validateOnly ? [] : await mapWithLimit(selected, options.jobs, (entry) => scoreEntry(entry, options, plugin));
  const score = buildScore({ options, plugin, loaded, invalid, scored, warnings });
  if (options.json) console.log(JSON.stringify(score, null, 2));
  else if (options.validateOnly) {
    for (const warning of warnings) console.log(`Warning: ${warning}`);
    for (const item of invalid) console.log(`${item.file}: ${item.problems.join('; ')}`);
    console.log(`${selected.length} valid, ${invalid.length} invalid, ${score.entries.inProgress} still being labelled`);
  } else console.log(formatText(score).join('\n'));
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError || error?.code?.startsWith?.('ERR_PARSE_ARGS')) {
    console.error(`score.mjs: ${error.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(`score.mjs: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 1;
  }
});
