import * as assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { LOCK_NOUN_WORDS } from '../../../../eslint-plugin/src/model/project/modules.js';
import { LOCK_NAME, LOCK_TEXT } from '../../../../eslint-plugin/src/model/project/lock-names.js';
import { LOCK_WORDS } from '../../../../eslint-plugin/src/model/screen/redis-gate.js';
import { LOCK_ACTS, LOCK_NOUNS } from '../../../../eslint-plugin/src/model/tables/lock-words.js';

// The patterns as they were written by hand before lock-words.ts became their one source: what
// each screen matched then is what it must match now.
const WRITTEN = {
  fileScreen: /lock|mutex|semaphore|lease|leader|acquire|release|claim|advisory|expir|until/i,
  moduleScreen: /[lL]ock|[mM]utex|[sS]emaphore|[lL]ease/u,
  helperText: /[lL]ock|[mM]utex|[sS]emaphore|[lL]ease|[aA]cquire|[rR]elease|[lL]eader|[cC]laim/u,
  helperName: /(?:^|[^bBcC])[lL]ock|[mM]utex|[sS]emaphore|[lL]ease|[aA]cquire|[rR]elease|[lL]eader|^claim|[a-z]Claim(?!s)/u,
};

// Names and texts around every word and its lookalikes: each case, inside and at the ends of names.
const SAMPLES = [
  'lock',
  'Lock',
  'LOCK',
  'jobLock',
  'lockKey',
  'block',
  'Block',
  'clock',
  'getBlock',
  'unlock',
  'withLock',
  'Unlock',
  'xLock',
  'BLOCK',
  'mutex',
  'Mutex',
  'MUTEX',
  'acquireMutex',
  'semaphore',
  'Semaphore',
  'lease',
  'Lease',
  'release',
  'Release',
  'releaseLease',
  'leader',
  'Leader',
  'LEADER',
  'leaderElection',
  'acquire',
  'Acquire',
  'tryAcquire',
  'ACQUIRE',
  'claim',
  'Claim',
  'claimJob',
  'tryClaim',
  'getClaims',
  'Claims',
  'xClaims',
  'CLAIM',
  'advisory',
  'pg_advisory_lock',
  'expires_at',
  'expiry',
  'locked_until',
  'until',
  'UNTIL',
  'LockMode',
  'LockTimeoutError',
  'Semaphores',
  'leaseholder',
  'clockSkew',
  'blockchain',
  'redis',
  'client',
  'select 1',
  '',
  'Mutual',
  'semaphor',
  'leas',
  'acquir',
  'releas',
  'leade',
  'clai',
  'advisor',
  'expi',
  'unti',
  'import { withLock } from "./locks"',
  'const x = 1;\nexport default x;',
  'a\nLock',
  'x.claim()',
  '$lock',
  '_Lock',
  '9lock',
];

describe('lock words: one list, every screen built from it', () => {
  it('the file screen, the module screen and the helper-name tests match what their written patterns matched', () => {
    for (const sample of SAMPLES) {
      assert.equal(LOCK_WORDS.test(sample), WRITTEN.fileScreen.test(sample), `file screen on ${JSON.stringify(sample)}`);
      assert.equal(LOCK_NOUN_WORDS.test(sample), WRITTEN.moduleScreen.test(sample), `module screen on ${JSON.stringify(sample)}`);
      assert.equal(LOCK_TEXT.test(sample), WRITTEN.helperText.test(sample), `helper text on ${JSON.stringify(sample)}`);
      assert.equal(LOCK_NAME.test(sample), WRITTEN.helperName.test(sample), `helper name on ${JSON.stringify(sample)}`);
    }
  });

  it('keeps the flags the scans rely on', () => {
    assert.equal(LOCK_WORDS.flags, WRITTEN.fileScreen.flags);
    assert.equal(LOCK_NOUN_WORDS.flags, WRITTEN.moduleScreen.flags);
    assert.equal(LOCK_TEXT.flags, WRITTEN.helperText.flags);
    assert.equal(LOCK_NAME.flags, WRITTEN.helperName.flags);
  });

  it('a word of the list reaches every screen that takes its kind', () => {
    for (const word of [...LOCK_NOUNS, ...LOCK_ACTS]) {
      assert.ok(LOCK_WORDS.test(word), word);
      assert.ok(LOCK_TEXT.test(word), word);
    }
    for (const word of LOCK_NOUNS) assert.ok(LOCK_NOUN_WORDS.test(word), word);
  });
});
