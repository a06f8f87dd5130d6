// The one place a Redis script held in JavaScript is parsed: the lock analysis (analyze-script.ts)
// and the reply-pitfall scan (reply-pitfalls.ts) read the same scripts, usually in the same file,
// and a script's parse costs more than both readings of it.

import * as luaparse from 'luaparse';

/**
 * The global a script reaches the server through (`redis.call`, `redis.pcall`, `redis.setresp`): a
 * name of Lua's environment inside Redis, not of a client library.
 */
export const LUA_REDIS_GLOBAL = 'redis';

// The chunks of the last few scripts: enough for the two readings of one file's scripts, without
// keeping the syntax trees of a whole project's scripts alive (each reading caches its own answer).
const RECENT_LIMIT = 32;
const recent = new Map<string, luaparse.Chunk | null>();

/** Parses a script the way Redis runs it (Lua 5.2 syntax, bytes as-is), with ranges; undefined when luaparse cannot read it. */
export function parseRedisLua(source: string): luaparse.Chunk | undefined {
  const known = recent.get(source);
  if (known !== undefined) return known ?? undefined;
  let chunk: luaparse.Chunk | null;
  try {
    chunk = luaparse.parse(source, { luaVersion: '5.2', encodingMode: 'x-user-defined', comments: false, ranges: true });
  } catch {
    chunk = null;
  }
  if (recent.size >= RECENT_LIMIT) recent.delete(recent.keys().next().value!);
  recent.set(source, chunk);
  return chunk ?? undefined;
}
