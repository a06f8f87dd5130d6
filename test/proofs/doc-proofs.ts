// Copies each rule's row of the runtime-proof results (test/proofs/RESULTS.md) into the rule's doc
// page, between markers, so a page shows what its hazard and its fix did on real servers.
// `tsx test/proofs/doc-proofs.ts` writes the pages; `--check` fails when one is out of date.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ResultRow {
  readonly rule: string;
  readonly brokenShows: string;
  readonly brokenViolations: string;
  readonly brokenFailed: string;
  readonly fixedShows: string;
  readonly fixedViolations: string;
  readonly fixedHeld: string;
  readonly runs: string;
}

const REPOSITORY = join(__dirname, '..', '..');
const RESULTS_FILE = join(REPOSITORY, 'test', 'proofs', 'RESULTS.md');
const BEGIN = '<!-- begin runtime proof (generated from test/proofs/RESULTS.md) -->';
const END = '<!-- end runtime proof -->';

/** Rows of a scenario that belong to a rule without carrying its id. */
const EXTRA_ROWS: Readonly<Record<string, readonly string[]>> = {
  'require-fencing-token': ['fence minted after acquisition'],
  'no-unsafe-extend': ['no-unsafe-extend by SET XX'],
};

export function parseResults(markdown: string): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const line of markdown.split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (cells.length !== 8 || cells[0] === 'rule' || cells[0]!.startsWith('---')) continue;
    const [rule, brokenShows, brokenViolations, brokenFailed, fixedShows, fixedViolations, fixedHeld, runs] = cells as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    rows.push({ rule, brokenShows, brokenViolations, brokenFailed, fixedShows, fixedViolations, fixedHeld, runs });
  }
  return rows;
}

export function renderProofSection(rows: readonly ResultRow[]): string {
  const lines = [
    BEGIN,
    '',
    'Measured on a throwaway `redis-server` and PostgreSQL by `npm run prove` (see',
    '[test/proofs/RESULTS.md](../test/proofs/RESULTS.md) for the method): the pattern this rule reports,',
    'and the code its suggestion writes, under the same forced interleaving.',
    '',
    '| scenario | the reported pattern | failed | the suggested fix | held |',
    '| --- | --- | ---: | --- | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.rule} | ${row.brokenShows} (${row.brokenViolations} violations) | ${row.brokenFailed} runs | ${row.fixedShows} (${row.fixedViolations} violations) | ${row.fixedHeld} runs |`,
    ),
    '',
    END,
  ];
  return lines.join('\n');
}

/** The page's text with its proof section replaced, or added before "Further reading" / at the end. */
export function withProofSection(page: string, section: string): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin !== -1 && end > begin) return page.slice(0, begin) + section + page.slice(end + END.length);
  const heading = `## Runtime proof\n\n${section}\n`;
  const placeholder = /## Runtime proof\n\nSee test\/proofs\/RESULTS\.md\n/u;
  if (placeholder.test(page)) return page.replace(placeholder, heading);
  const furtherReading = page.indexOf('\n## Further reading');
  if (furtherReading !== -1) return `${page.slice(0, furtherReading + 1)}${heading}\n${page.slice(furtherReading + 1)}`;
  return `${page.trimEnd()}\n\n${heading}`;
}

/** Every page whose rule has a scenario, with its expected text. */
export function expectedPages(): { file: string; current: string; expected: string }[] {
  const rows = parseResults(readFileSync(RESULTS_FILE, 'utf8'));
  const rules = new Set(rows.map((row) => row.rule).filter((rule) => /^[a-z]+(?:-[a-z]+)+$/u.test(rule) && !rule.includes(' ')));
  const pages: { file: string; current: string; expected: string }[] = [];
  for (const rule of rules) {
    const file = join(REPOSITORY, 'rules-docs', `${rule}.md`);
    let current: string;
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const extra = EXTRA_ROWS[rule] ?? [];
    const ruleRows = rows.filter((row) => row.rule === rule || extra.includes(row.rule));
    pages.push({ file, current, expected: withProofSection(current, renderProofSection(ruleRows)) });
  }
  return pages;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  const stale = expectedPages().filter((page) => page.current !== page.expected);
  if (check) {
    for (const page of stale) console.error(`doc-proofs: out of date: ${page.file} (run \`npx tsx test/proofs/doc-proofs.ts\`)`);
    process.exitCode = stale.length > 0 ? 1 : 0;
  } else {
    for (const page of stale) writeFileSync(page.file, page.expected);
    console.log(`doc-proofs: ${stale.length} page(s) updated`);
  }
}
