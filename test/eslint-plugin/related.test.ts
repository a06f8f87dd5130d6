// Findings carry related locations (where the lock was taken, released, or read) in their report
// data, which the editor's language server turns into a diagnostic's relatedInformation.

import * as assert from 'node:assert/strict';
import { Linter, type Rule } from 'eslint';
import { describe, it } from 'mocha';
import plugin from '../../eslint-plugin/src/index.js';

interface CapturedReport {
  ruleId: string;
  related: { message: string; line: number }[];
}

/** Lints with every rule wrapped so each report's `data.related` is kept. */
function reportsOf(code: string): CapturedReport[] {
  const captured: CapturedReport[] = [];
  const rules: Record<string, Rule.RuleModule> = {};
  for (const [ruleId, rule] of Object.entries(plugin.rules as unknown as Record<string, Rule.RuleModule>)) {
    rules[ruleId] = {
      ...rule,
      create(context) {
        const report = (descriptor: Rule.ReportDescriptor): void => {
          const data = (descriptor as { data?: { related?: { message: string; node: { loc: { start: { line: number } } } }[] } }).data;
          captured.push({
            ruleId,
            related: (data?.related ?? []).map((entry) => ({ message: entry.message, line: entry.node.loc.start.line })),
          });
          context.report(descriptor);
        };
        return rule.create(Object.create(context, { report: { value: report } }) as Rule.RuleContext);
      },
    };
  }
  const enabled = Object.fromEntries(Object.keys(rules).map((ruleId) => [`locksmith/${ruleId}`, 'error' as const]));
  new Linter().verify(code, [{ plugins: { locksmith: { rules } }, rules: enabled, languageOptions: { sourceType: 'module' } }]);
  return captured;
}

describe('related locations', () => {
  it('point from a split acquire, an unsafe release and an unsafe renewal back to the acquisition', () => {
    const reports = reportsOf(`import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
const redis = new Redis();
export async function run(work) {
  const token = randomUUID();
  if (!(await redis.setnx('lock:job', token))) return;
  await redis.expire('lock:job', 30);
  const timer = setInterval(() => redis.pexpire('lock:job', 30000), 10000);
  try {
    await work();
  } finally {
    clearInterval(timer);
    await redis.del('lock:job');
  }
}`);
    const byRule = new Map(reports.map((report) => [report.ruleId, report.related]));
    assert.deepEqual(byRule.get('no-split-acquire'), [{ message: '`SETNX` takes the lock here, with no expiry', line: 6 }]);
    assert.deepEqual(byRule.get('no-unsafe-release'), [{ message: 'The lock is acquired here', line: 6 }]);
    assert.deepEqual(byRule.get('no-unsafe-extend'), [{ message: 'The lock is acquired here', line: 6 }]);
  });

  it('point from a check-then-set to the read that found the lock free', () => {
    const reports = reportsOf(`export async function run(redis) {
  const held = await redis.get('lock:job');
  if (held) return;
  await redis.set('lock:job', '1');
}`);
    const report = reports.find((candidate) => candidate.ruleId === 'no-check-then-set');
    assert.deepEqual(report?.related, [{ message: 'The `GET` that found the lock free', line: 2 }]);
  });
});
