// Benchmark: lints a corpus nobody here wrote with ESLint's core rules and with Locksmith's, and prints the cost ratio.
//
// Corpus (same files, same parser for both runs): every .js/.cjs/.mjs file (no .d.ts, no .min.js) under
//   node_modules/eslint/{lib,bin,conf}, node_modules/@eslint/*/dist, node_modules/@typescript-eslint/*/dist,
//   node_modules/typescript-eslint/dist, node_modules/@eslint-community/*, node_modules/eslint-plugin-eslint-plugin/dist,
//   node_modules/espree/dist, node_modules/eslint-scope/{lib,dist}, node_modules/eslint-visitor-keys/{lib,dist},
// without descending into nested node_modules. Each file is parsed by espree (ecmaVersion latest) as a
// module or CommonJS by Node's own rule: .mjs/.cjs by extension, .js by the nearest package.json "type"
// and, where that sets none, by Node's syntax detection.
//
// Runs: "core" = @eslint/js recommended, "locksmith" = locksmith strict (every rule on). Per-rule times come from
// ESLint's `stats` (the data behind TIMING=all: create() plus listeners), so the ratio is
// locksmith rule time / core rule time; parsing is shared by both and reported apart.
// A rule that throws is a crash: caught per file, counted and printed (file, rule, message).
// The last line is exactly `ratio=R dense_ratio=R files=N crashes=C` (C counts Locksmith crashes).
//
// Second, lock-dense corpus: the JS files (.js/.cjs/.mjs) of the real lock packages of corpus/package.json
// (installed by corpus/files.mjs, the files `npm run corpus` lints), measured the same way (same runs, same
// parser, same source-type rule) and printed as `dense_ratio`. Its files and crashes are counted in the last line.
// Before the last line, bench/scaling.mjs prints the rule time on generated lock-dense files of 1,000 and
// 3,000 lock sites per file shape, and `scaling=R`, the worst ratio of each size's fastest sample (linear cost: ≤ 3.5;
// a sample of the small file is three lints so that both sizes' samples take as long), with `scaling_median=R`,
// the worst ratio of the medians, beside it (see scaling.mjs for why); `--no-scaling` skips it.
//
// To extend: add a run to RUNS, or a shared analysis (an exported function the rules call, compiled
// into eslint-plugin/dist) to SHARED_ANALYSES; its time is measured while the Locksmith run lints.
// `node bench/run.mjs --json` also prints a JSON summary line before the last line.

import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { collectCorpusFiles as collectLockCorpusFiles, corpusModules, ensureCorpusInstalled } from '../corpus/files.mjs';
import { measureScaling, scalingLines } from './scaling.mjs';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeModules = path.join(repositoryRoot, 'node_modules');
const require = createRequire(import.meta.url);
const { Linter } = require('eslint');
const coreJs = require('@eslint/js');
const espree = require('espree');
const pluginDist = path.join(repositoryRoot, 'eslint-plugin/dist');
const locksmith = require(path.join(pluginDist, 'index.js'));

const CORPUS_ROOTS = [
  'eslint/lib',
  'eslint/bin',
  'eslint/conf',
  '@eslint/*/dist',
  '@typescript-eslint/*/dist',
  'typescript-eslint/dist',
  '@eslint-community/*',
  'eslint-plugin-eslint-plugin/dist',
  'espree/dist',
  'eslint-scope/lib',
  'eslint-scope/dist',
  'eslint-visitor-keys/lib',
  'eslint-visitor-keys/dist',
];
const CORPUS_EXTENSIONS = ['.js', '.cjs', '.mjs'];

export const RUNS = [
  { name: 'core', plugins: {}, rules: coreJs.configs.recommended.rules, countsCrashes: false },
  { name: 'locksmith', plugins: { locksmith }, rules: locksmith.configs.strict.rules, countsCrashes: true },
];

// Functions the rules share (computed once per file, cached per Program); their time is part of the
// rules' time and is shown again here as a share of it. Nested calls are counted once, in the caller.
export const SHARED_ANALYSES = [
  { name: 'lock model (getLockModel)', module: 'model/index.js', exportName: 'getLockModel' },
  { name: 'SQL model (getSqlModel)', module: 'model/sql/index.js', exportName: 'getSqlModel' },
  // The PostgreSQL parser (pgsql-ast-parser) behind the SQL model, timed apart from it.
  { name: 'SQL parser (parseSql)', module: 'sql/parse.js', exportName: 'parseSql' },
];

/** Absolute paths of the corpus files, sorted. */
export function collectCorpus() {
  const files = [];
  for (const pattern of CORPUS_ROOTS) {
    for (const directory of expandStar(pattern)) walk(directory, files);
  }
  return [...new Set(files)].sort();
}

function expandStar(pattern) {
  const [scope, ...rest] = pattern.split('/');
  if (!rest[0]?.includes('*')) return [path.join(nodeModules, pattern)].filter((directory) => fs.existsSync(directory));
  const scopeDirectory = path.join(nodeModules, scope);
  if (!fs.existsSync(scopeDirectory)) return [];
  return fs
    .readdirSync(scopeDirectory)
    .map((name) => path.join(scopeDirectory, name, ...rest.slice(1)))
    .filter((directory) => fs.existsSync(directory));
}

function walk(directory, files) {
  for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
    const child = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') walk(child, files);
    } else if (
      entry.isFile() &&
      CORPUS_EXTENSIONS.includes(path.extname(entry.name)) &&
      !/\.d\.[cm]?ts$|\.min\.[cm]?js$/.test(entry.name)
    ) {
      files.push(child);
    }
  }
}

const packageTypeCache = new Map();

/** 'module' or 'commonjs' as Node decides, given the file's text (see packageTypeOf and detectedSourceType). */
function sourceTypeOf(file, text) {
  if (file.endsWith('.mjs')) return 'module';
  if (file.endsWith('.cjs')) return 'commonjs';
  return packageTypeOf(file) ?? detectedSourceType(text);
}

/** The nearest package.json's "type" ('module' or 'commonjs'), or undefined when it has none. */
function packageTypeOf(file) {
  let directory = path.dirname(file);
  const visited = [];
  for (;;) {
    if (packageTypeCache.has(directory)) break;
    visited.push(directory);
    const manifest = path.join(directory, 'package.json');
    if (fs.existsSync(manifest)) {
      const { type } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
      packageTypeCache.set(directory, type === 'module' || type === 'commonjs' ? type : undefined);
      break;
    }
    const parent = path.dirname(directory);
    if (parent === directory) {
      packageTypeCache.set(directory, undefined);
      break;
    }
    directory = parent;
  }
  const type = packageTypeCache.get(directory);
  for (const seen of visited) packageTypeCache.set(seen, type);
  return type;
}

// A .js file whose package sets no "type" is CommonJS for Node unless it does not compile as CommonJS,
// in which case Node (20.19+, 22.7+) runs it as a module: syntax detection. Packages that ship ESM in a
// typeless folder (bullmq's dist/esm) depend on it. Parsed here once, outside the measured lint.
function detectedSourceType(text) {
  try {
    espree.parse(text, { ecmaVersion: 'latest', sourceType: 'commonjs' });
    return 'commonjs';
  } catch {
    return 'module';
  }
}

function configFor(run, sourceType) {
  return [
    {
      files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
      languageOptions: { ecmaVersion: 'latest', sourceType },
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      plugins: run.plugins,
      rules: run.rules,
    },
  ];
}

/** A run's accumulated measurements. */
function emptyTally(run) {
  return { run, ruleTimes: new Map(), ruleTotal: 0, parseTime: 0, lintTime: 0, crashes: [], unparsed: [], findings: 0 };
}

/** Lints one file with one run's rules and adds its times, crash or parse failure to `tally`. */
function lintFile(linter, tally, { file, text, sourceType }) {
  const started = performance.now();
  let messages;
  try {
    // verifyAndFix is the entry point that records `stats` times (ESLint's CLI uses it); nothing is fixed.
    // Inline `/* eslint ... */` comments in the corpus would switch on rules outside the run: ignore them.
    ({ messages } = linter.verifyAndFix(text, configFor(tally.run, sourceType), {
      filename: file,
      stats: true,
      fix: false,
      allowInlineConfig: false,
    }));
  } catch (error) {
    tally.crashes.push({ file, rule: error?.ruleId ?? '(unknown rule)', message: String(error?.message ?? error).split('\n')[0] });
    return;
  } finally {
    tally.lintTime += performance.now() - started;
  }
  const fatal = messages.find((message) => message.fatal);
  if (fatal) {
    tally.unparsed.push({ file, message: fatal.message });
    return;
  }
  tally.findings += messages.length;
  for (const pass of linter.getTimes().passes) {
    tally.parseTime += pass.parse?.total ?? 0;
    for (const [ruleId, { total }] of Object.entries(pass.rules ?? {})) {
      tally.ruleTimes.set(ruleId, (tally.ruleTimes.get(ruleId) ?? 0) + total);
      tally.ruleTotal += total;
    }
  }
}

/**
 * Lints the corpus with every run. Files are interleaved (each file with each run in turn) after a
 * warm-up pass, so no run pays alone for the JIT warming up or for garbage left by another.
 */
export function lintCorpus(runs, corpus, { warmUpFiles = 150, onWarmedUp = () => undefined, cwd = nodeModules } = {}) {
  // cwd is the node_modules folder itself: ESLint's default ignores would otherwise drop every corpus file.
  const linter = new Linter({ configType: 'flat', cwd });
  const warmUp = runs.map(emptyTally);
  for (const entry of corpus.slice(0, warmUpFiles)) {
    for (const tally of warmUp) lintFile(linter, tally, entry);
  }
  onWarmedUp();
  const tallies = runs.map(emptyTally);
  for (const entry of corpus) {
    for (const tally of tallies) lintFile(linter, tally, entry);
  }
  return tallies;
}

/** Wraps each shared analysis so calls made while linting are timed (exclusive of nested analyses). */
export function instrumentSharedAnalyses() {
  const timings = [];
  const stack = [];
  for (const analysis of SHARED_ANALYSES) {
    let exportsObject;
    try {
      exportsObject = require(path.join(pluginDist, analysis.module));
    } catch {
      continue;
    }
    const original = exportsObject[analysis.exportName];
    if (typeof original !== 'function') continue;
    const timing = { name: analysis.name, exclusive: 0, calls: 0 };
    timings.push(timing);
    // Compiled rules call `(0, module.fn)(...)`, reading the export at call time, so replacing it is seen.
    exportsObject[analysis.exportName] = function timed(...args) {
      const frame = { start: performance.now(), nested: 0 };
      stack.push(frame);
      try {
        return original.apply(this, args);
      } finally {
        stack.pop();
        const elapsed = performance.now() - frame.start;
        timing.exclusive += elapsed - frame.nested;
        timing.calls += 1;
        if (stack.length > 0) stack[stack.length - 1].nested += elapsed;
      }
    };
  }
  return timings;
}

function milliseconds(time) {
  return `${time.toFixed(1).padStart(9)} ms`;
}

function printRun(result, limit) {
  const sorted = [...result.ruleTimes].sort((left, right) => right[1] - left[1]);
  console.log(
    `\n${result.run.name}: ${result.ruleTimes.size} rules, rules ${result.ruleTotal.toFixed(1)} ms, parse ${result.parseTime.toFixed(1)} ms, whole lint ${result.lintTime.toFixed(1)} ms, findings ${result.findings}`,
  );
  for (const [ruleId, time] of sorted.slice(0, limit)) {
    const share = result.ruleTotal > 0 ? ((100 * time) / result.ruleTotal).toFixed(1) : '0.0';
    console.log(`  ${ruleId.padEnd(44)} ${milliseconds(time)} ${share.padStart(5)}%`);
  }
  if (sorted.length > limit) console.log(`  … ${sorted.length - limit} more rules`);
  for (const crash of result.crashes) {
    console.log(`  CRASH ${path.relative(repositoryRoot, crash.file)}: ${crash.rule}: ${crash.message}`);
  }
}

/** Lints `files` with every run and prints the runs; returns the core and Locksmith tallies and the linted count. */
function measure(files, { sharedTimings = [], cwd = nodeModules } = {}) {
  const corpus = files.map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return { file, text, sourceType: sourceTypeOf(file, text) };
  });
  const results = lintCorpus(RUNS, corpus, {
    cwd,
    // The warm-up pass calls the shared analyses too; count only the measured pass.
    onWarmedUp: () => {
      for (const timing of sharedTimings) Object.assign(timing, { exclusive: 0, calls: 0 });
    },
  });
  const core = results.find((result) => result.run.name === 'core');
  const plugin = results.find((result) => result.run.name === 'locksmith');

  printRun(core, 15);
  printRun(plugin, Infinity);
  if (sharedTimings.length > 0) {
    console.log('\nshared analysis (inside the locksmith rule times above):');
    for (const timing of sharedTimings) {
      const share = plugin.ruleTotal > 0 ? ((100 * timing.exclusive) / plugin.ruleTotal).toFixed(1) : '0.0';
      console.log(`  ${timing.name.padEnd(44)} ${milliseconds(timing.exclusive)} ${share.padStart(5)}%  (${timing.calls} calls)`);
    }
  }

  const unparsed = new Set(results.flatMap((result) => result.unparsed.map(({ file }) => file)));
  for (const file of unparsed) console.log(`unparsable (left out): ${path.relative(repositoryRoot, file)}`);
  // Files both runs linted (a crash still counts: the file was linted and a rule threw on it).
  const linted = files.filter((file) => !unparsed.has(file)).length;
  const crashes = results.filter((result) => result.run.countsCrashes).reduce((sum, result) => sum + result.crashes.length, 0);
  const ratio = core.ruleTotal > 0 ? plugin.ruleTotal / core.ruleTotal : Number.NaN;
  console.log(
    `\nlocksmith rules ${plugin.ruleTotal.toFixed(1)} ms / core rules ${core.ruleTotal.toFixed(1)} ms; core crashes ${core.crashes.length}`,
  );
  return { core, plugin, linted, crashes, ratio };
}

function describeFiles(files) {
  const bytes = files.reduce((sum, file) => sum + fs.statSync(file).size, 0);
  return `${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function main() {
  const files = collectCorpus();
  console.log(`corpus: ${describeFiles(files)}, from node_modules/{${CORPUS_ROOTS.join(',')}}`);
  const sharedTimings = instrumentSharedAnalyses();
  const { core, plugin, linted, crashes, ratio } = measure(files, { sharedTimings });

  ensureCorpusInstalled();
  const denseFiles = collectLockCorpusFiles().filter((file) => CORPUS_EXTENSIONS.includes(path.extname(file)));
  console.log(`\ndense corpus: ${describeFiles(denseFiles)}, the JS files of the real lock packages of corpus/package.json`);
  const dense = measure(denseFiles, { cwd: corpusModules });

  if (!process.argv.includes('--no-scaling')) {
    console.log('');
    for (const line of scalingLines(measureScaling())) console.log(line);
  }
  if (process.argv.includes('--json')) {
    console.log(
      JSON.stringify({
        ratio,
        dense_ratio: dense.ratio,
        files: linted + dense.linted,
        crashes: crashes + dense.crashes,
        core: Object.fromEntries(core.ruleTimes),
        locksmith: Object.fromEntries(plugin.ruleTimes),
        dense: { core: Object.fromEntries(dense.core.ruleTimes), locksmith: Object.fromEntries(dense.plugin.ruleTimes) },
        shared: Object.fromEntries(sharedTimings.map((timing) => [timing.name, timing.exclusive])),
      }),
    );
  }
  // A crash is a bug; the ratio targets (0.10, scaling 3.5) are reported, not enforced, as timings vary by machine.
  const allCrashes = crashes + dense.crashes;
  if (allCrashes > 0) process.exitCode = 1;
  console.log(`ratio=${ratio.toFixed(3)} dense_ratio=${dense.ratio.toFixed(3)} files=${linted + dense.linted} crashes=${allCrashes}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main();
}
