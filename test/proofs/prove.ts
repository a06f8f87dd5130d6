// `npm run prove`: runs every scenario's broken and fixed code against throwaway servers, prints the
// issue's table with this run's counts, and exits non-zero unless every broken pattern failed and
// every fix held. Options: --runs N (default 3), --write-results (regenerates RESULTS.md),
// --only <scenario id>.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { FULL_OPTIONS, brokenFailed, fixedHeld, runVariant } from './harness.js';
import { newTally, record, renderResultsMarkdown, renderTable, summaryLine, totals } from './report.js';
import { expectedPages } from './doc-proofs.js';
import { SCENARIOS } from './scenarios/index.js';
import { startServers } from './servers.js';

const DEFAULT_RUNS = 3;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: String(DEFAULT_RUNS) },
      'write-results': { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
    },
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
  const only = values.only;
  const scenarios = only ? SCENARIOS.filter((scenario) => only.includes(scenario.id)) : SCENARIOS;
  if (scenarios.length === 0) throw new Error(`no scenario matches --only ${String(only)}`);
  if (values['write-results'] && scenarios.length !== SCENARIOS.length) throw new Error('--write-results needs every scenario');

  const servers = await startServers();
  try {
    const tallies = scenarios.map(newTally);
    for (let run = 0; run < runs; run += 1) {
      const started = Date.now();
      let asExpected = 0;
      for (const tally of tallies) {
        const broken = await runVariant(tally.scenario, 'broken', servers, run, FULL_OPTIONS);
        const fixed = await runVariant(tally.scenario, 'fixed', servers, run, FULL_OPTIONS);
        record(tally, run, broken, fixed);
        if (brokenFailed(broken) && fixedHeld(fixed)) asExpected += 1;
      }
      console.log(
        `run ${run + 1}/${runs}: ${asExpected}/${tallies.length} scenarios as expected (${((Date.now() - started) / 1000).toFixed(1)} s)`,
      );
    }
    console.log('');
    console.log(renderTable(tallies));
    const problems = tallies.flatMap((tally) => [
      ...tally.errors.map((error) => `${tally.scenario.id}: ${error}`),
      ...[...tally.fixedMessages].map((message) => `${tally.scenario.id}: fixed code violation: ${message}`),
    ]);
    if (problems.length > 0) {
      console.log('');
      for (const problem of problems) console.log(`FAIL ${problem}`);
    }
    const sums = totals(tallies);
    if (values['write-results']) {
      const path = join(__dirname, 'RESULTS.md');
      writeFileSync(path, renderResultsMarkdown(tallies, servers));
      console.log(`\nwrote ${path}`);
      // Each rule's doc page quotes its rows: keep them in step with the table just written.
      for (const page of expectedPages()) if (page.current !== page.expected) writeFileSync(page.file, page.expected);
    }
    console.log('');
    console.log(summaryLine(sums));
    return sums.brokenFailed === sums.total && sums.fixedHeld === sums.total ? 0 : 1;
  } finally {
    await servers.stop();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  },
);
