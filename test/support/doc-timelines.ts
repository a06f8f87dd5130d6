// `tsx test/support/doc-timelines.ts` writes, from each rule's race timeline (eslint-plugin/src/timelines,
// the definition the SARIF code flows come from), the Mermaid sequence diagram on the rule's page and
// the list of rules with a code flow in docs/cli.md; `--check` fails when either is out of date, so a
// timeline and its diagram cannot drift apart.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { mermaidSequence, RACE_TIMELINES, type RaceTimeline } from '../../eslint-plugin/src/timelines/index.js';

const REPOSITORY = path.resolve(__dirname, '../..');
const SOURCE = 'eslint-plugin/src/timelines/index.ts';
export const DIAGRAM_BEGIN = `<!-- begin race timeline (generated from ${SOURCE}: npm run docs) -->`;
export const DIAGRAM_END = '<!-- end race timeline -->';
const LIST_BEGIN = `<!-- begin rules with a code flow (generated from ${SOURCE}: npm run docs) -->`;
const LIST_END = '<!-- end rules with a code flow -->';

export function diagramSection(timeline: RaceTimeline): string {
  return [DIAGRAM_BEGIN, '', '```mermaid', mermaidSequence(timeline), '```', '', DIAGRAM_END].join('\n');
}

/**
 * The page with its generated diagram: between the markers when they are there, else in place of the
 * first Mermaid diagram under `## The race` (the hand-drawn one the timeline was written from).
 */
export function withDiagram(page: string, section: string): string | undefined {
  const begin = page.indexOf(DIAGRAM_BEGIN);
  const end = page.indexOf(DIAGRAM_END);
  if (begin !== -1 && end > begin) return page.slice(0, begin) + section + page.slice(end + DIAGRAM_END.length);
  const race = page.indexOf('\n## The race\n');
  if (race === -1) return undefined;
  const fence = page.indexOf('```mermaid\n', race);
  const nextHeading = page.indexOf('\n## ', race + 1);
  if (fence === -1 || (nextHeading !== -1 && fence > nextHeading)) return undefined;
  const close = page.indexOf('\n```', fence + 1);
  if (close === -1) return undefined;
  return page.slice(0, fence) + section + page.slice(close + '\n```'.length);
}

export function ruleListSection(): string {
  const rows = RACE_TIMELINES.map(
    (timeline) =>
      `| [${timeline.rule}](../rules-docs/${timeline.rule}.md) | ${timeline.holders.map((holder) => `\`holder-${holder}\``).join(', ')} | ${timeline.steps.length} | ${timeline.title} |`,
  );
  return [LIST_BEGIN, '', '| rule | thread flows | steps | the race |', '| --- | --- | ---: | --- |', ...rows, '', LIST_END].join('\n');
}

/** Every generated file: its path, its text now, and the text it must hold (`undefined`: nowhere to put it). */
export function expectedFiles(): { file: string; current: string; expected: string | undefined }[] {
  const files: { file: string; current: string; expected: string | undefined }[] = [];
  for (const timeline of RACE_TIMELINES) {
    const file = path.join(REPOSITORY, 'rules-docs', `${timeline.rule}.md`);
    const current = fs.readFileSync(file, 'utf8');
    files.push({ file, current, expected: withDiagram(current, diagramSection(timeline)) });
  }
  const cli = path.join(REPOSITORY, 'docs', 'cli.md');
  const current = fs.readFileSync(cli, 'utf8');
  const begin = current.indexOf(LIST_BEGIN);
  const end = current.indexOf(LIST_END);
  files.push({
    file: cli,
    current,
    expected: begin !== -1 && end > begin ? current.slice(0, begin) + ruleListSection() + current.slice(end + LIST_END.length) : undefined,
  });
  return files;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  let failed = 0;
  for (const { file, current, expected } of expectedFiles()) {
    const shown = path.relative(process.cwd(), file);
    if (expected === undefined) {
      console.error(
        `doc-timelines: ${shown} has no place for its generated section (a Mermaid diagram under "## The race", or the markers)`,
      );
      failed += 1;
    } else if (expected !== current) {
      if (check) {
        console.error(`doc-timelines: out of date: ${shown} (run \`npx tsx test/support/doc-timelines.ts\`)`);
        failed += 1;
      } else {
        fs.writeFileSync(file, expected);
        console.log(`doc-timelines: wrote ${shown}`);
      }
    }
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
