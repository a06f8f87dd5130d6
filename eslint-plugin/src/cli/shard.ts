// `--shard i/n`: which files this CI matrix job lints. A file's shard depends on its own path only
// (a hash of its repository-relative POSIX path, modulo n), so adding or removing files never moves
// another file to a different shard, where its code-scanning alerts would close and reopen.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './usage-error.js';

export interface Shard {
  /** 1-based, as typed: `--shard 2/4` is index 2 of count 4. */
  index: number;
  count: number;
}

export function parseShard(text: string): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = match === null ? Number.NaN : Number(match[1]);
  const count = match === null ? Number.NaN : Number(match[2]);
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index < 1 || index > count) {
    throw new UsageError(`--shard needs i/n with 1 <= i <= n, e.g. --shard 2/4, got '${text}'`);
  }
  return { index, count };
}

/** `locksmith/shard-2-of-4/`: SARIF's `automationDetails.id`, one code-scanning category per shard. */
export function shardAutomationId(shard: Shard): string {
  return `locksmith/shard-${shard.index}-of-${shard.count}/`;
}

/** The nearest ancestor of `cwd` holding `.git` (a directory, or a file in a worktree or submodule); else `cwd`. */
export function repositoryRoot(cwd: string): string {
  for (let directory = path.resolve(cwd); ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, '.git'))) return directory;
    if (path.dirname(directory) === directory) return path.resolve(cwd);
  }
}

/** 32-bit FNV-1a of the UTF-8 bytes: stable across Node versions, platforms and runs. */
export function stableHash(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The path a file is hashed by: relative to the repository root, with `/` separators on every platform. */
export function shardKey(file: string, root: string): string {
  return path.relative(root, path.resolve(file)).split(path.sep).join('/');
}

/** 1-based shard of one file. */
export function shardOf(file: string, root: string, count: number): number {
  return (stableHash(shardKey(file, root)) % count) + 1;
}

/** The files of `shard`, in their given order; one pass over the list. */
export function filesOfShard(files: readonly string[], shard: Shard, root: string): string[] {
  return files.filter((file) => shardOf(file, root, shard.count) === shard.index);
}
