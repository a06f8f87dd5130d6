// The shared machinery of the runtime proofs: what a scenario is, the context it runs in, the
// synchronisation primitives that force interleavings, and the runner that tallies outcomes.

import pg from 'pg';
import postgres from 'postgres';
import type { ProofServers } from './servers.js';

export type Variant = 'broken' | 'fixed';

export interface ProofOptions {
  /** TTL in ms of a lock whose holder the scenario pauses past it. */
  readonly shortTtlMs: number;
  /** TTL in ms of a lock that must outlive its holder's critical section in every run. */
  readonly longTtlMs: number;
  /** Upper bound of every wait on an event; reaching it fails the run instead of hanging. */
  readonly waitTimeoutMs: number;
}

export const FULL_OPTIONS: ProofOptions = { shortTtlMs: 200, longTtlMs: 15_000, waitTimeoutMs: 10_000 };
export const FAST_OPTIONS: ProofOptions = { shortTtlMs: 150, longTtlMs: 15_000, waitTimeoutMs: 10_000 };

/** What a variant's run observed: every broken invariant is a violation, with a sentence saying what. */
export class Tally {
  readonly violations: string[] = [];
  readonly observations: string[] = [];

  violation(message: string): void {
    this.violations.push(message);
  }

  note(message: string): void {
    this.observations.push(message);
  }

  /** Records `message` as a violation unless the invariant holds. */
  expect(invariantHolds: boolean, message: string): void {
    if (!invariantHolds) this.violation(message);
  }
}

export interface ProofContext {
  readonly servers: ProofServers;
  readonly variant: Variant;
  readonly run: number;
  /**
   * Which turn of the scenario this is within the run (0 when it has one turn): worker `i` uses
   * dialect `i + rotation`, so over a run's turns every client library plays every role.
   */
  readonly rotation: number;
  readonly options: ProofOptions;
  readonly tally: Tally;
  /** A Redis key (or lock name) unique to this scenario, variant and run. */
  key(name: string): string;
  /** A number unique within this process (advisory lock keys, row ids). */
  uniqueNumber(): number;
  /** Registers a cleanup (closing a connection, killing a child) run after the variant, even on failure. */
  defer(cleanup: () => unknown): void;
  /** Polls `condition` every few ms until it holds; throws if `waitTimeoutMs` passes first. */
  waitUntil(what: string, condition: () => Promise<boolean> | boolean): Promise<void>;
  /** A pg.Client connected to the throwaway PostgreSQL, closed after the variant. */
  pgClient(): Promise<pg.Client>;
  /** A pg.Pool on the throwaway PostgreSQL, ended after the variant. */
  pgPool(max: number): pg.Pool;
  /** A postgres.js instance on the throwaway PostgreSQL, ended after the variant. */
  postgresJs(max: number): postgres.Sql;
}

export interface Scenario {
  /** The rule id, or a slug for a hazard that is one rule's second case. */
  readonly id: string;
  /** First column of the table. */
  readonly rule: string;
  readonly brokenShows: string;
  readonly fixedShows: string;
  /** Where the fixed code comes from, for RESULTS.md. */
  readonly fixSource: string;
  /** How many times a run repeats the workload with the workers' client libraries rotated (default 1). */
  readonly rotations?: number;
  /** Runs the workload once with the given variant's code, recording violations in `context.tally`. */
  run(context: ProofContext): Promise<void>;
}

/** Resolves every waiter once `parties` have arrived. */
export class Barrier {
  private arrived = 0;
  private readonly opened: Promise<void>;
  private open!: () => void;

  constructor(private readonly parties: number) {
    this.opened = new Promise((resolve) => {
      this.open = resolve;
    });
  }

  async arrive(): Promise<void> {
    this.arrived += 1;
    if (this.arrived === this.parties) this.open();
    return this.opened;
  }
}

/** A one-shot gate: `wait()` resolves once `open()` has been called. */
export class Gate {
  private readonly opened: Promise<void>;
  private release!: () => void;

  constructor() {
    this.opened = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.release();
  }

  async wait(): Promise<void> {
    return this.opened;
  }
}

/** Counts who is inside a critical section and remembers the most at once. */
export class Occupancy {
  inside = 0;
  maxInside = 0;
  readonly holders = new Set<string>();

  enter(holder: string): void {
    this.inside += 1;
    this.holders.add(holder);
    this.maxInside = Math.max(this.maxInside, this.inside);
  }

  leave(holder: string): void {
    this.inside -= 1;
    this.holders.delete(holder);
  }
}

const POLL_INTERVAL_MS = 5;
const CLEANUP_TIMEOUT_MS = 5_000;

/** Runs `task`, ignoring its errors (a connection already closed or killed), bounded by `timeoutMs`. */
async function settleWithin(task: () => unknown, timeoutMs: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, timeoutMs);
  });
  const done = Promise.resolve()
    .then(task)
    .then(
      () => 'done' as const,
      () => 'done' as const,
    );
  try {
    return await Promise.race([done, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
let uniqueCounter = 0;
let invocationCounter = 0;

export interface VariantResult {
  readonly violations: readonly string[];
  readonly observations: readonly string[];
  /** Set when the run itself broke (a timeout, a lost connection): neither a pass nor a proof. */
  readonly error?: string | undefined;
}

export async function runVariant(
  scenario: Scenario,
  variant: Variant,
  servers: ProofServers,
  run: number,
  options: ProofOptions,
): Promise<VariantResult> {
  const tally = new Tally();
  // Keys never repeat within a server's life, even when a caller runs the same variant twice.
  invocationCounter += 1;
  const invocation = invocationCounter;
  const cleanups: (() => unknown)[] = [];
  const pgConfig = {
    host: servers.postgres.host,
    port: servers.postgres.port,
    user: servers.postgres.user,
    database: servers.postgres.database,
  };
  const makeContext = (rotation: number): ProofContext => ({
    servers,
    variant,
    run,
    rotation,
    options,
    tally,
    key: (name) => `proof:${invocation}:${scenario.id}:${variant}:${run}:${rotation}:${name}`,
    uniqueNumber: () => {
      uniqueCounter += 1;
      return (process.pid % 10_000) * 100_000 + uniqueCounter;
    },
    defer: (cleanup) => {
      cleanups.push(cleanup);
    },
    waitUntil: async (what, condition) => {
      const deadline = Date.now() + options.waitTimeoutMs;
      const maxPolls = Math.ceil(options.waitTimeoutMs / POLL_INTERVAL_MS) + 1;
      for (let poll = 0; poll < maxPolls && Date.now() <= deadline; poll += 1) {
        if (await condition()) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
      }
      throw new Error(`timed out after ${options.waitTimeoutMs} ms waiting until ${what}`);
    },
    pgClient: async () => {
      const client = new pg.Client(pgConfig);
      client.on('error', () => undefined);
      await client.connect();
      cleanups.push(() => client.end());
      return client;
    },
    pgPool: (max) => {
      const pool = new pg.Pool({ ...pgConfig, max });
      pool.on('error', () => undefined);
      cleanups.push(() => pool.end());
      return pool;
    },
    postgresJs: (max) => {
      const sql = postgres({ ...pgConfig, max, onnotice: () => undefined });
      cleanups.push(() => sql.end({ timeout: 1 }));
      return sql;
    },
  });
  let error: string | undefined;
  for (let rotation = 0; rotation < (scenario.rotations ?? 1) && error === undefined; rotation += 1) {
    try {
      await scenario.run(makeContext(rotation));
    } catch (caught) {
      error = caught instanceof Error ? caught.message : String(caught);
    } finally {
      for (const cleanup of cleanups.splice(0).reverse()) {
        const outcome = await settleWithin(cleanup, CLEANUP_TIMEOUT_MS);
        // A cleanup that hangs (a pool whose client was never given back) fails the run, not the process.
        if (outcome === 'timeout') error ??= `a cleanup did not finish within ${CLEANUP_TIMEOUT_MS} ms`;
      }
    }
  }
  return { violations: tally.violations, observations: tally.observations, error };
}

/** A broken variant proves its hazard when it shows at least one violation and did not error. */
export function brokenFailed(result: VariantResult): boolean {
  return result.error === undefined && result.violations.length > 0;
}

/** A fixed variant holds when it shows no violation and did not error. */
export function fixedHeld(result: VariantResult): boolean {
  return result.error === undefined && result.violations.length === 0;
}
