// `npm run corpus`: lints the real-package corpus with the locksmith CLI and checks every finding against corpus/expected.json.
//
// The corpus is every JS and TS file shipped by the packages of corpus/package.json (see files.mjs). It is
// linted by the CLI itself (`--format json`, every rule of the `strict` preset), in two processes for CI's two
// cores, with cwd corpus/node_modules so that the files are named relative to it (ESLint ignores what lies
// under a node_modules folder *inside* its working directory, not the working directory itself).
//
// It fails (exit 1) on a finding that expected.json does not record (a known miss that starts being found
// included: promote it), on a recorded true positive that is no longer reported, on a crash (a rule or the CLI
// throwing), on a parse error for a file that Node (or TypeScript, for TS files) accepts, and on a manifest
// that is not the shared list plus corpus/issue-32-packages.json. A recorded false positive or debatable
// finding that is no longer reported is printed, not failed on. Findings are matched by rule,
// package-relative file and the trimmed text of the reported line, so a recorded finding survives code moving
// up or down in the file. It prints real-code recall: of the findings reading the code expects (entries
// marked expectedByReading, and knownMisses), how many Locksmith reports.
//
// `node corpus/run.mjs --write-unreviewed` prints the unrecorded findings as expected.json entries to review.

import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { collectCorpusFiles, CORPUS_EXTENSIONS, corpusDirectory, corpusModules, ensureCorpusInstalled } from './files.mjs';
import { anchorOf, checkKnownMisses, compareWithExpected, manifestProblems, recallOf } from './expectations.mjs';
import { checkAcceptedByNode } from './syntax-check.mjs';

const repositoryRoot = path.dirname(corpusDirectory);
const require = createRequire(import.meta.url);
const cliBin = path.join(repositoryRoot, 'eslint-plugin/bin/locksmith.js');
const expectedFile = path.join(corpusDirectory, 'expected.json');
const sharedListFile = path.join(repositoryRoot, '../shared/corpus/packages.json');
const issue32ListFile = path.join(corpusDirectory, 'issue-32-packages.json');
const RULE_PREFIX = 'locksmith/';
const PROCESSES = 2;

/** The `--rule id=error` arguments that turn on exactly the `strict` preset. */
function strictRuleArguments() {
  const locksmith = require(path.join(repositoryRoot, 'eslint-plugin/dist/index.js'));
  return Object.entries(locksmith.configs.strict.rules)
    .filter(([, severity]) => severity !== 'off')
    .map(([ruleId]) => `--rule=${ruleId.slice(RULE_PREFIX.length)}=error`);
}

/** Runs the CLI on `files` (relative to corpusModules) and resolves to its exit code, stdout and stderr. */
function runCli(files, ruleArguments) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliBin, '--format', 'json', ...ruleArguments, ...files], {
      cwd: corpusModules,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = [];
    const stderr = [];
    child.stdout.on('data', (chunk) => stdout.push(chunk));
    child.stderr.on('data', (chunk) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }),
    );
  });
}

/**
 * Lints `files` and resolves to { results, crashes }. Exit 2 means the CLI stopped (a rule threw, which ESLint
 * turns into an error for the whole run): the files are then split until each crash is pinned to its file.
 */
async function lintFiles(files, ruleArguments) {
  const { code, stdout, stderr } = await runCli(files, ruleArguments);
  if (code === 0 || code === 1) return { results: JSON.parse(stdout), crashes: [] };
  if (files.length === 1) {
    return { results: [], crashes: [{ file: files[0], message: stderr.trim().split('\n')[0] || `exit ${code}` }] };
  }
  const middle = Math.ceil(files.length / 2);
  const [left, right] = [await lintFiles(files.slice(0, middle), ruleArguments), await lintFiles(files.slice(middle), ruleArguments)];
  return { results: [...left.results, ...right.results], crashes: [...left.crashes, ...right.crashes] };
}

async function lintCorpus(files, ruleArguments) {
  // Interleaved halves: packages differ a lot in size, so contiguous halves would leave one process idle.
  const shares = Array.from({ length: PROCESSES }, (_, index) => files.filter((_, position) => position % PROCESSES === index));
  const parts = await Promise.all(shares.filter((share) => share.length > 0).map((share) => lintFiles(share, ruleArguments)));
  return { results: parts.flatMap((part) => part.results), crashes: parts.flatMap((part) => part.crashes) };
}

async function main() {
  const started = performance.now();
  const manifest = JSON.parse(fs.readFileSync(path.join(corpusDirectory, 'package.json'), 'utf8'));
  // CI checks the repository out beside shared/; elsewhere only the issue 32 part of the manifest is checked.
  const sharedList = fs.existsSync(sharedListFile) ? JSON.parse(fs.readFileSync(sharedListFile, 'utf8')) : null;
  const issue32List = JSON.parse(fs.readFileSync(issue32ListFile, 'utf8'));
  const problems = manifestProblems(manifest, sharedList, issue32List);
  ensureCorpusInstalled();
  const absoluteFiles = collectCorpusFiles({ extensions: [...CORPUS_EXTENSIONS, '.lua'] });
  const files = absoluteFiles.map((file) => path.relative(corpusModules, file));
  const texts = new Map(absoluteFiles.map((file) => [file, fs.readFileSync(file, 'utf8')]));
  const lines = [...texts.values()].reduce((sum, text) => sum + text.split('\n').length, 0);

  const lintStarted = performance.now();
  const { results, crashes } = await lintCorpus(files, strictRuleArguments());
  const lintSeconds = (performance.now() - lintStarted) / 1000;

  const findings = [];
  const parseErrors = [];
  for (const result of results) {
    const file = path.relative(corpusModules, result.filePath).split(path.sep).join('/');
    for (const message of result.messages) {
      if (message.fatal)
        parseErrors.push({ file, absolute: result.filePath, message: `${message.line}:${message.column} ${message.message}` });
      else if (message.ruleId?.startsWith(RULE_PREFIX)) {
        findings.push({
          rule: message.ruleId.slice(RULE_PREFIX.length),
          file,
          line: message.line,
          anchor: anchorOf(texts.get(result.filePath) ?? '', message.line),
          message: message.message,
        });
      } else problems.push(`${file}:${message.line}: a message of a rule that is not Locksmith's: ${message.ruleId}`);
    }
  }
  const linted = new Set(results.map((result) => result.filePath));
  for (const file of absoluteFiles) {
    if (!linted.has(file) && !crashes.some((crash) => path.resolve(corpusModules, crash.file) === file)) {
      problems.push(`${path.relative(corpusModules, file)}: named on the command line but not linted`);
    }
  }

  // A parse error is a CLI bug unless Node (or TypeScript) rejects the file too.
  const wrongParseErrors = [];
  for (const parseError of parseErrors) {
    // A Redis script a package ships runs on Redis: failing to parse it is always the CLI's bug.
    if (parseError.file.endsWith('.lua')) {
      wrongParseErrors.push(parseError);
      continue;
    }
    const verdict = checkAcceptedByNode(parseError.absolute);
    if (verdict.accepted) wrongParseErrors.push(parseError);
    else parseError.alsoRejectedBy = verdict.by;
  }

  const { findings: expected, knownMisses = [] } = JSON.parse(fs.readFileSync(expectedFile, 'utf8'));
  const { unrecorded, missing } = compareWithExpected(findings, expected);
  const { nowFound, stillMissed } = checkKnownMisses(findings, knownMisses);
  const recall = recallOf(expected, missing, knownMisses, nowFound);

  const perRule = new Map();
  for (const finding of findings) perRule.set(finding.rule, (perRule.get(finding.rule) ?? 0) + 1);
  const added = Object.keys(issue32List.packages).length;
  console.log(
    `corpus: ${files.length} files, ${lines} lines, ${texts.size > 0 ? new Set(files.map((file) => packageOf(file))).size : 0} packages (${Object.keys(manifest.dependencies).length - added} of the shared list, ${added} added for issue 32)`,
  );
  console.log(
    `lint: ${lintSeconds.toFixed(1)} s wall (${PROCESSES} processes); whole run ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(`parse errors: ${parseErrors.length} (${wrongParseErrors.length} in files Node or TypeScript accepts)`);
  for (const parseError of parseErrors) {
    console.log(
      `  ${parseError.file}: ${parseError.message}${parseError.alsoRejectedBy ? ` (also rejected by ${parseError.alsoRejectedBy})` : ' — ACCEPTED BY NODE'}`,
    );
  }
  console.log(`crashes: ${crashes.length}`);
  for (const crash of crashes) console.log(`  ${crash.file}: ${crash.message}`);
  console.log(`findings: ${findings.length} (${expected.length} recorded in corpus/expected.json)`);
  for (const [rule, count] of [...perRule].sort()) console.log(`  ${rule.padEnd(36)} ${count}`);
  const perVerdict = new Map();
  for (const entry of expected) perVerdict.set(entry.verdict, (perVerdict.get(entry.verdict) ?? 0) + (entry.count ?? 1));
  console.log(`recorded verdicts: ${[...perVerdict].map(([verdict, count]) => `${verdict} ${count}`).join(', ') || 'none'}`);
  console.log(
    `real-code recall: ${recall.found}/${recall.total}${recall.total > 0 ? ` (${((100 * recall.found) / recall.total).toFixed(1)}%)` : ''} of the findings reading the code expects (${knownMisses.length} recorded as known misses, ${stillMissed.length} still missed)`,
  );
  for (const miss of stillMissed) console.log(`  known miss: ${miss.rule} ${miss.file} \`${miss.anchors[0]}\``);

  for (const finding of unrecorded) {
    const miss = nowFound.find(
      (known) => known.rule === finding.rule && known.file === finding.file && known.anchors.includes(finding.anchor),
    );
    problems.push(
      miss
        ? `known miss now found (promote it to a finding): ${finding.rule} ${finding.file}:${finding.line} \`${finding.anchor}\``
        : `unrecorded finding: ${finding.rule} ${finding.file}:${finding.line} \`${finding.anchor}\` — ${finding.message}`,
    );
  }
  for (const { entry, left } of missing) {
    const line = `recorded ${entry.verdict} no longer reported${left > 1 ? ` (${left} times)` : ''}: ${entry.rule} ${entry.file} \`${entry.anchor}\``;
    // A false positive or debatable finding that goes away is news (a rule fixed), not a failure.
    if (entry.verdict === 'true-positive') problems.push(line);
    else console.log(`note: ${line}`);
  }
  for (const parseError of wrongParseErrors) problems.push(`parse error in a file Node accepts: ${parseError.file}: ${parseError.message}`);
  for (const crash of crashes) problems.push(`crash: ${crash.file}: ${crash.message}`);

  if (process.argv.includes('--write-unreviewed')) {
    console.log(
      JSON.stringify(
        unrecorded.map(({ rule, file, line, anchor, message }) => ({
          rule,
          file,
          line,
          anchor,
          message,
          verdict: 'UNREVIEWED',
          reason: '',
        })),
        null,
        2,
      ),
    );
  }
  if (problems.length > 0) {
    console.log(`\nFAILED: ${problems.length} problem(s)`);
    for (const problem of problems) console.log(`  ${problem}`);
    process.exitCode = 1;
  } else {
    console.log('\nOK: every finding is recorded, every recorded true positive is reported, no crash, no wrong parse error');
  }
}

function packageOf(file) {
  const parts = file.split(/[\\/]/);
  return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

await main();
