// no-lua-reply-pitfalls: an acquire script that tests `redis.call('EXISTS', KEYS[1])` for truth.
// EXISTS replies 0 for a free lock, and 0 is true in Lua, so the "held" branch always runs: the script
// refuses a free lock forever. The script a developer writes after the finding, `== 1`, takes the free
// lock and still refuses a held one. (The rule offers no suggestion: both scripts are written here.)

import { randomUUID } from 'node:crypto';
import type { Scenario } from '../harness.js';
import { EVERY_DIALECT_IN_EVERY_ROLE, connectWorkers } from '../redis-workers.js';

/** The reported shape: a truth test of an integer reply. */
const BROKEN_ACQUIRE = `if redis.call('EXISTS', KEYS[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** The same script comparing the reply with 1, as the rule's message says. */
const FIXED_ACQUIRE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

export const noLuaReplyPitfalls: Scenario = {
  id: 'no-lua-reply-pitfalls',
  rule: 'no-lua-reply-pitfalls',
  brokenShows: "`if redis.call('EXISTS', k) then` takes the held branch on a 0 reply: a free lock is refused",
  fixedShows: '`== 1`: the free lock is taken, a held one refused',
  fixSource: 'no suggestion: the script with `== 1`, written by hand as the message says',
  rotations: EVERY_DIALECT_IN_EVERY_ROLE,
  async run(context) {
    const [holderA, holderB, observer] = await connectWorkers(context, 3);
    const key = context.key('lock');
    const { longTtlMs } = context.options;
    context.defer(() => observer!.del(key));
    const script = context.variant === 'broken' ? BROKEN_ACQUIRE : FIXED_ACQUIRE;

    const tokenA = randomUUID();
    context.tally.expect((await observer!.pttl(key)) === -2, 'the lock was not free to start with');
    const takenByA = Number(await holderA!.evalScript(script, [key], [tokenA, String(longTtlMs)])) === 1;
    context.tally.note(`A's acquire of the free lock replied ${takenByA ? 1 : 0}`);
    context.tally.expect(takenByA, 'the free lock was refused (EXISTS replied 0, and 0 is true in Lua)');

    const takenByB = Number(await holderB!.evalScript(script, [key], [randomUUID(), String(longTtlMs)])) === 1;
    context.tally.expect(!takenByB || !takenByA, 'B took the lock while A held it');
    if (takenByA) await holderA!.release(key, tokenA);
  },
};
