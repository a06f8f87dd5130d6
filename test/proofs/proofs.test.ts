// The fast variant of the runtime proofs inside `npm test`: one run of every scenario against
// throwaway servers started for this suite and stopped after it, pass or fail.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { FAST_OPTIONS, runVariant } from './harness.js';
import { SCENARIOS } from './scenarios/index.js';
import { startServers, type ProofServers } from './servers.js';

describe('runtime proofs against a real Redis and PostgreSQL', function () {
  this.timeout(30_000);
  let servers: ProofServers | undefined;

  before(async function () {
    this.timeout(60_000);
    servers = await startServers();
  });

  after(async function () {
    this.timeout(30_000);
    await servers?.stop();
  });

  for (const scenario of SCENARIOS) {
    describe(scenario.rule, () => {
      it(`broken: ${scenario.brokenShows}`, async () => {
        assert.ok(servers, 'servers did not start');
        const result = await runVariant(scenario, 'broken', servers, 0, FAST_OPTIONS);
        assert.equal(result.error, undefined, result.error);
        assert.ok(result.violations.length > 0, `the broken pattern did not fail: ${result.observations.join('; ')}`);
      });

      it(`fixed: ${scenario.fixedShows}`, async () => {
        assert.ok(servers, 'servers did not start');
        const result = await runVariant(scenario, 'fixed', servers, 0, FAST_OPTIONS);
        assert.equal(result.error, undefined, result.error);
        assert.deepEqual(result.violations, [], result.observations.join('; '));
      });
    });
  }
});
