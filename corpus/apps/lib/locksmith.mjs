// The repository's built Locksmith: its rules and presets (read from eslint-plugin/dist), and its CLI run on a checkout.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { run } from './snapshot.mjs';

export const PRESETS = ['recommended', 'strict'];
const RULE_PREFIX = 'locksmith/';
// What the CLI lints when named, minus what it skips in a folder walk (declarations, minified bundles).
const LINTED_EXTENSIONS = ['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx', '.lua'];
const SKIPPED_SUFFIXES = ['.d.ts', '.d.mts', '.d.cts', '.min.js', '.min.mjs', '.min.cjs'];

/**
 * The plugin as built in `repositoryRoot`: `{ version, cliBin, shippedRuleIds, enabledRuleIds: { preset:
 * Set } }`. Throws when the plugin is not built.
 */
export function loadPlugin(repositoryRoot) {
  const distDirectory = path.join(repositoryRoot, 'eslint-plugin/dist');
  const cliBin = path.join(repositoryRoot, 'eslint-plugin/bin/locksmith.js');
  if (!fs.existsSync(path.join(distDirectory, 'configs.js')) || !fs.existsSync(cliBin)) {
    throw new Error(
      `no built plugin in ${repositoryRoot} (eslint-plugin/dist/configs.js, eslint-plugin/bin/locksmith.js): run npm run build there`,
    );
  }
  const require = createRequire(path.join(distDirectory, 'index.js'));
  const plugin = require('./index.js');
  const configs = require('./configs.js');
  const presetRules = { recommended: configs.recommendedRules, strict: configs.strictRules };
  const enabledRuleIds = {};
  for (const preset of PRESETS) {
    const rules = presetRules[preset] ?? plugin.configs?.[preset]?.rules;
    if (rules === undefined) throw new Error(`the built plugin has no ${preset} preset`);
    enabledRuleIds[preset] = new Set(
      Object.entries(rules)
        .filter(([, severity]) => !isOff(severity))
        .map(([ruleId]) => ruleId.slice(RULE_PREFIX.length)),
    );
  }
  return {
    version: plugin.meta?.version ?? 'unknown',
    cliBin,
    shippedRuleIds: new Set(Object.keys(plugin.rules)),
    enabledRuleIds,
  };
}

function isOff(severity) {
  const level = Array.isArray(severity) ? severity[0] : severity;
  return level === 'off' || level === 0;
}

/** The entry's files the CLI is given: every JS, TS and Lua file it would lint in the repository. */
export function lintedFiles(files) {
  return files.filter(
    (file) => LINTED_EXTENSIONS.some((extension) => file.endsWith(extension)) && !SKIPPED_SUFFIXES.some((suffix) => file.endsWith(suffix)),
  );
}

/**
 * Runs `locksmith --preset <preset> --format json` on the listed files of a checkout, from the
 * checkout's root, so imports between them resolve as they would in the repository. Resolves to
 * `{ ok: true, findings, notices }` or `{ ok: false, reason }` when the CLI stopped.
 */
export async function runLocksmith({ cliBin, checkoutDirectory, files, preset, timeoutMs, typeAware = false }) {
  const args = [
    cliBin,
    '--preset',
    preset,
    '--format',
    'json',
    ...(typeAware ? ['--type-aware'] : []),
    ...files.map((file) => `./${file}`),
  ];
  const result = await run(process.execPath, args, undefined, { cwd: checkoutDirectory, timeoutMs });
  const stderr = result.stderr.toString('utf8').trim();
  if (result.signal !== null)
    return { ok: false, reason: `locksmith --preset ${preset} was stopped (${result.signal}) after ${timeoutMs / 1000} s` };
  // 0: no errors, 1: errors found; anything else is the CLI failing (a rule threw, a bad locksmith.json).
  if (result.code !== 0 && result.code !== 1) {
    return { ok: false, reason: `locksmith --preset ${preset} exited ${result.code}: ${stderr.split('\n')[0] ?? ''}` };
  }
  let results;
  try {
    results = JSON.parse(result.stdout.toString('utf8'));
  } catch {
    return { ok: false, reason: `locksmith --preset ${preset} printed no JSON report: ${stderr.split('\n')[0] ?? ''}` };
  }
  const findings = [];
  const notices = [];
  for (const fileResult of results) {
    const file = path.relative(checkoutDirectory, fileResult.filePath).split(path.sep).join('/');
    for (const message of fileResult.messages) {
      if (typeof message.ruleId === 'string' && message.ruleId.startsWith(RULE_PREFIX)) {
        findings.push({
          rule: message.ruleId.slice(RULE_PREFIX.length),
          file,
          line: message.line,
          column: message.column,
          severity: message.severity === 2 ? 'error' : 'warning',
          message: message.message,
        });
      } else {
        // A parse error or an "ignored" notice: the file was not linted, which the reader must hear.
        notices.push(`${file}${message.line === undefined ? '' : `:${message.line}`}: ${message.message}`);
      }
    }
  }
  return { ok: true, findings, notices };
}
