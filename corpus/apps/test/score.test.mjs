// Self-test of the corpus scorer: the matching rules on synthetic findings, and one run of score.mjs on a synthetic entry and snapshot (no network).
//
// Run: node --test corpus/apps/test/ (the end-to-end part needs the built plugin: npm run build).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { validateEntry } from '../lib/entries.mjs';
import { labelsForPreset, matchFindings } from '../lib/match.mjs';

const testDirectory = path.dirname(fileURLToPath(import.meta.url));
const scoreScript = path.join(testDirectory, '../score.mjs');
// corpus/apps/test → the repository root; LOCKSMITH_REPO points elsewhere when the tool is run outside it.
const repositoryRoot = path.resolve(process.env.LOCKSMITH_REPO ?? path.join(testDirectory, '../../..'));

const label = (rule, line, extra = {}) => ({ rule, file: 'src/lock.ts', line, reason: `${rule} at ${line}`, ...extra });
const finding = (rule, line, extra = {}) => ({ rule, file: 'src/lock.ts', line, column: 1, message: `${rule} reported`, ...extra });
const tally = ({ hits, misses, falsePositives }) => ({ tp: hits.length, fp: falsePositives.length, fn: misses.length });

describe('matchFindings', () => {
  it('counts a finding on the labelled line as a hit', () => {
    const result = matchFindings({ labels: [label('no-unsafe-release', 42)], findings: [finding('no-unsafe-release', 42)] });
    assert.deepEqual(tally(result), { tp: 1, fp: 0, fn: 0 });
  });

  it('needs the same rule and the same file', () => {
    const result = matchFindings({
      labels: [label('no-unsafe-release', 42)],
      findings: [finding('require-lock-ttl', 42), finding('no-unsafe-release', 42, { file: 'src/other.ts' })],
    });
    assert.deepEqual(tally(result), { tp: 0, fp: 2, fn: 1 });
  });

  it('allows one line either side of a label without a span, and no more', () => {
    const result = matchFindings({
      labels: [label('no-unsafe-release', 10), label('require-lock-ttl', 20)],
      findings: [finding('no-unsafe-release', 11), finding('require-lock-ttl', 22)],
    });
    assert.deepEqual(tally(result), { tp: 1, fp: 1, fn: 1 });
    assert.equal(result.misses[0].rule, 'require-lock-ttl');
  });

  it('takes a finding anywhere in a span, and no tolerance beyond it', () => {
    const spanned = label('require-fencing-token', 31, { lines: [30, 36] });
    assert.deepEqual(tally(matchFindings({ labels: [spanned], findings: [finding('require-fencing-token', 35)] })), {
      tp: 1,
      fp: 0,
      fn: 0,
    });
    assert.deepEqual(tally(matchFindings({ labels: [spanned], findings: [finding('require-fencing-token', 37)] })), {
      tp: 0,
      fp: 1,
      fn: 1,
    });
  });

  it('counts a finding on a silent line as a false positive, even next to a label', () => {
    const result = matchFindings({
      labels: [label('no-unsafe-release', 20)],
      findings: [finding('no-unsafe-release', 21)],
      silent: [{ file: 'src/lock.ts', line: 21, why: 'cache key' }],
    });
    assert.deepEqual(tally(result), { tp: 0, fp: 1, fn: 1 });
    assert.equal(result.falsePositives[0].silent.why, 'cache key');
  });

  it('matches one to one: two findings for one label leave a false positive, one finding for two labels a miss', () => {
    const twoFindings = matchFindings({
      labels: [label('no-unsafe-release', 42)],
      findings: [finding('no-unsafe-release', 42), finding('no-unsafe-release', 42, { column: 9 })],
    });
    assert.deepEqual(tally(twoFindings), { tp: 1, fp: 1, fn: 0 });
    const twoLabels = matchFindings({
      labels: [label('no-unsafe-release', 42), label('no-unsafe-release', 43)],
      findings: [finding('no-unsafe-release', 42)],
    });
    assert.deepEqual(tally(twoLabels), { tp: 1, fp: 0, fn: 1 });
    assert.equal(twoLabels.hits[0].label.line, 42, 'the nearer label takes the finding');
  });

  it('pairs for the most hits, not first come first served', () => {
    // The finding on 11 could stand for either label; taking the one on 12 would leave the finding on 13 nothing.
    const result = matchFindings({
      labels: [label('no-unsafe-release', 12), label('no-unsafe-release', 10)],
      findings: [finding('no-unsafe-release', 11), finding('no-unsafe-release', 13)],
    });
    assert.deepEqual(tally(result), { tp: 2, fp: 0, fn: 0 });
  });
});

describe('labelsForPreset', () => {
  it('splits labels into counted, off in the preset, and not shipped', () => {
    const labels = [label('no-unsafe-release', 1), label('require-release-check', 2), label('no-ttl-unit-mismatch', 3)];
    const split = labelsForPreset(labels, {
      shippedRuleIds: new Set(['no-unsafe-release', 'require-release-check']),
      enabledRuleIds: new Set(['no-unsafe-release']),
    });
    assert.deepEqual(
      [split.counted, split.off, split.notShipped].map((group) => group.map((item) => item.rule)),
      [['no-unsafe-release'], ['require-release-check'], ['no-ttl-unit-mismatch']],
    );
  });
});

describe('validateEntry', () => {
  const knownRuleIds = new Set(['no-unsafe-release', 'require-unique-token']);
  const valid = {
    repository: 'someone/app',
    commit: 'a'.repeat(40),
    kind: 'redis',
    shape: 'a worker takes an ioredis SET NX PX lock',
    tags: ['redis'],
    files: ['src/lock.ts'],
    expected: [label('no-unsafe-release', 42, { lines: [41, 43] })],
    silent: [{ file: 'src/lock.ts', line: 17, why: 'cache' }],
    labelled: '2026-12-06 by reading, before running Locksmith',
  };

  it('accepts a well-formed entry', () => {
    assert.deepEqual(validateEntry(valid, 'someone__app.json', { knownRuleIds }), []);
  });

  it('names every problem of a malformed entry', () => {
    const problems = validateEntry(
      {
        ...valid,
        commit: 'abc123',
        expected: [{ rule: 'no-such-rule', file: 'src/elsewhere.ts', line: 0, reason: 'x' }, label('no-unsafe-release', 17)],
        silent: [{ file: 'src/lock.ts', line: 17, why: 'cache' }],
      },
      'someone__other.json',
      { knownRuleIds, reserved: new Set(['someone/app']) },
    );
    const expectedProblems = [
      'file name should be someone__app.json',
      'reserved',
      'commit is not 40',
      'unknown rule "no-such-rule"',
      'file "src/elsewhere.ts" is not in files',
      'line is not a positive integer',
      'silent[0]: line 17 is also expected[1]',
    ];
    for (const expected of expectedProblems)
      assert.ok(
        problems.some((problem) => problem.includes(expected)),
        `${expected} in ${problems.join(' | ')}`,
      );
  });
});

// The synthetic app: a shared client module and a job module importing it, each lock with a shared
// value ('taken', require-unique-token) and a plain DEL release (no-unsafe-release).
const REDIS_MODULE = `// The one Redis client of the synthetic app.
const Redis = require('ioredis');

module.exports = new Redis(process.env.REDIS_URL);
`;
const JOBS_MODULE = `// Runs each nightly job on one worker at a time.
const redis = require('./redis');

async function runNightly(job) {
  const lockKey = \`lock:job:\${job.name}\`;
  const acquired = await redis.set(lockKey, 'taken', 'PX', 30000, 'NX');
  if (acquired !== 'OK') return;
  try {
    await job.run();
  } finally {
    await redis.del(lockKey);
  }
}

async function runReport(report) {
  const lockKey = \`lock:report:\${report.id}\`;
  const acquired = await redis.set(lockKey, 'taken', 'PX', 30000, 'NX');
  if (acquired !== 'OK') return;
  try {
    await report.build();
  } finally {
    await redis.del(lockKey);
  }
}

module.exports = { runNightly, runReport };
`;

function git(directory, ...args) {
  return execFileSync(
    'git',
    ['-C', directory, '-c', 'user.name=corpus-test', '-c', 'user.email=corpus-test@example.invalid', '-c', 'commit.gpgsign=false', ...args],
    { encoding: 'utf8' },
  ).trim();
}

/** A snapshot as fetch leaves one: <mirror>/owner+name/repo/.git. Returns the commit of `files`. */
function makeSnapshot(mirror, repository, files) {
  const work = path.join(mirror, repository.replace('/', '+'), 'repo');
  fs.mkdirSync(work, { recursive: true });
  git(work, 'init', '-q');
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), text);
  }
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'labelled commit');
  return git(work, 'rev-parse', 'HEAD');
}

describe('score.mjs on a synthetic entry and snapshot', () => {
  it('scores hits, silent-line and unlabelled false positives, misses, tolerance and one-to-one at the entry commit', (context) => {
    if (!fs.existsSync(path.join(repositoryRoot, 'eslint-plugin/dist/configs.js'))) {
      assert.fail(`no built plugin in ${repositoryRoot}: run npm run build there, or set LOCKSMITH_REPO`);
    }
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'locksmith-apps-corpus-'));
    context.after(() => fs.rmSync(root, { recursive: true, force: true }));
    const [mirror, entries, checkout] = ['mirror', 'entries', 'checkout'].map((name) => path.join(root, name));
    fs.mkdirSync(entries);

    const commit = makeSnapshot(mirror, 'synthetic/app', {
      'src/redis.js': REDIS_MODULE,
      'src/jobs.js': JOBS_MODULE,
      'README.md': 'synthetic\n',
    });
    // A later commit moves every line down: scoring it instead of the entry's commit would miss every label.
    const work = path.join(mirror, 'synthetic+app/repo');
    fs.writeFileSync(path.join(work, 'src/jobs.js'), `// moved\n// down\n// three\n${JOBS_MODULE}`);
    git(work, 'commit', '-q', '-am', 'later commit');
    const otherCommit = makeSnapshot(mirror, 'synthetic/stale', { 'src/jobs.js': JOBS_MODULE });

    const jobs = (rule, line, reason, extra = {}) => ({ rule, file: 'src/jobs.js', line, reason, ...extra });
    const entry = {
      repository: 'synthetic/app',
      commit,
      kind: 'redis',
      shape: 'two job runners take an ioredis SET NX PX lock through a shared client module',
      tags: ['redis', 'multi-module'],
      files: ['src/jobs.js', 'src/redis.js'],
      expected: [
        jobs('no-unsafe-release', 11, 'plain DEL: hit on the exact line'),
        jobs('no-unsafe-release', 11, 'the same fault labelled twice: the one finding matches one label only, so a miss'),
        jobs('require-unique-token', 7, 'shared value, reported on line 6: a hit within the one-line tolerance'),
        jobs('require-unique-token', 19, 'reported on line 17, two lines away: a miss, and line 17 a false positive'),
        jobs('require-lock-ttl', 18, 'nothing is reported here: a miss'),
        jobs('require-release-check', 11, 'a strict-only rule, not reported: off in recommended, a miss in strict'),
        jobs('no-ttl-unit-mismatch', 6, 'a catalogue rule the plugin does not ship'),
      ],
      silent: [{ file: 'src/jobs.js', line: 22, why: 'the DEL here is declared silent: its finding is a false positive' }],
      labelled: 'synthetic, for the self-test',
    };
    const write = (name, value) => fs.writeFileSync(path.join(entries, name), `${JSON.stringify(value, null, 2)}\n`);
    write('synthetic__app.json', entry);
    write('synthetic__claimed.json', { claimed: true });
    write('synthetic__broken.json', { ...entry, repository: 'synthetic/broken', commit: 'not-a-commit' });
    write('synthetic__absent.json', { ...entry, repository: 'synthetic/absent' });
    write('synthetic__stale.json', {
      ...entry,
      repository: 'synthetic/stale',
      commit: otherCommit.replace(/^./, (digit) => (digit === 'f' ? '0' : 'f')),
    });

    const output = execFileSync(
      process.execPath,
      [scoreScript, '--json', '--entries', entries, '--repo', repositoryRoot, '--mirror', mirror, '--checkout', checkout],
      { encoding: 'utf8' },
    );
    const score = JSON.parse(output);

    assert.equal(score.entries.inProgress, 1);
    assert.deepEqual(
      score.entries.invalid.map((item) => item.file),
      ['synthetic__broken.json'],
    );
    assert.deepEqual(score.entries.unscored.map((item) => item.repository).sort(), ['synthetic/absent', 'synthetic/stale']);
    assert.match(score.entries.unscored.find((item) => item.repository === 'synthetic/absent').reason, /fetch github:synthetic\/absent/);
    assert.match(score.entries.unscored.find((item) => item.repository === 'synthetic/stale').reason, /lacks commit/);
    assert.equal(score.entries.scored, 1);
    assert.deepEqual(
      score.notShipped.map((item) => item.rule),
      ['no-ttl-unit-mismatch'],
    );
    assert.ok(fs.existsSync(path.join(checkout, 'synthetic__app/src/redis.js')));
    assert.ok(!fs.existsSync(path.join(checkout, 'synthetic__app/README.md')), 'only the listed files are rebuilt');

    const { recommended, strict } = score.presets;
    assert.deepEqual([recommended.tp, recommended.fp, recommended.fn, recommended.offInPreset], [2, 2, 3, 1]);
    assert.deepEqual([strict.tp, strict.fp, strict.fn, strict.offInPreset], [2, 2, 4, 0]);
    assert.deepEqual(
      recommended.falsePositives.map((item) => [item.line, item.rule, item.silent !== undefined]),
      [
        [17, 'require-unique-token', false],
        [22, 'no-unsafe-release', true],
      ],
    );
    assert.deepEqual(recommended.misses.map((item) => `${item.rule}:${item.line}`).sort(), [
      'no-unsafe-release:11',
      'require-lock-ttl:18',
      'require-unique-token:19',
    ]);
    assert.deepEqual(recommended.rules['no-unsafe-release'], { tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5 });
  });
});
