// The race timelines: one per rule that has a race, well-formed, drawn on the rule's page as generated.

import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { rules } from '../../eslint-plugin/src/rules/index';
import { mermaidSequence, RACE_TIMELINES } from '../../eslint-plugin/src/timelines/index';
import { expectedFiles } from '../support/doc-timelines';

describe('race timelines', () => {
  it('name existing rules, once each, and give every holder a step', () => {
    const ruleIds = RACE_TIMELINES.map((timeline) => timeline.rule);
    assert.deepEqual(ruleIds, [...new Set(ruleIds)]);
    for (const timeline of RACE_TIMELINES) {
      assert.ok(timeline.rule in rules, timeline.rule);
      assert.ok(timeline.holders.length >= 2, `${timeline.rule}: a race takes two holders`);
      for (const holder of timeline.holders)
        assert.ok(
          timeline.steps.some((step) => step.holder === holder),
          `${timeline.rule}: ${holder} has a step`,
        );
      for (const step of timeline.steps) assert.ok(timeline.holders.includes(step.holder), `${timeline.rule}: ${step.holder} is a holder`);
      assert.ok(
        timeline.steps.some((step) => step.at === 'finding'),
        `${timeline.rule}: some step is the reported code`,
      );
    }
  });

  it('draw as Mermaid sequence diagrams whose texts hold nothing Mermaid reads as syntax', () => {
    for (const timeline of RACE_TIMELINES) {
      const diagram = mermaidSequence(timeline);
      assert.match(diagram, /^sequenceDiagram\n/);
      const participants = new Set([...timeline.holders, ...timeline.servers.map((server) => server.id)]);
      for (const line of diagram.split('\n').slice(1)) {
        assert.doesNotMatch(line, /[;#]/, `${timeline.rule}: ${line}`);
        const arrow = /^ {4}(\w+)(?:->>|-->>)(\w+): \S/.exec(line);
        const note = /^ {4}Note over ([\w,]+): \S/.exec(line);
        const participant = /^ {4}participant (\w+) as \S/.exec(line);
        assert.ok(arrow ?? note ?? participant, `${timeline.rule}: ${line}`);
        for (const id of arrow ? [arrow[1]!, arrow[2]!] : note ? note[1]!.split(',') : [])
          assert.ok(participants.has(id), `${timeline.rule}: ${id} is a participant`);
      }
    }
  });

  it('are drawn on the rule pages and listed in docs/cli.md as generated (npm run docs)', () => {
    for (const { file, current, expected } of expectedFiles()) {
      assert.notEqual(expected, undefined, `${file} has a place for the generated section`);
      assert.ok(expected === current, `${file} is out of date: run npx tsx test/support/doc-timelines.ts`);
    }
  });
});
