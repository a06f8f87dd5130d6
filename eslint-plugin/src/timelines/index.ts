// The race behind each rule that has one, defined once: the SARIF output writes it as a code flow
// (one thread flow per holder, every step at a real place of the finding) and the rule's page shows
// it as a Mermaid sequence diagram (test/support/doc-timelines.ts writes and checks that section).
// Plain data: the model does not import it, and it imports neither rules nor fixes.

import type { RelatedRole } from '../related/index.js';

/** A holder of the lock: its own thread flow in SARIF (`holder-A`), its own lifeline on the page. */
export type Holder = 'A' | 'B' | 'C';

/** Where a step sits in the file: the reported node, or one of the related places the rule attached. */
export type StepPlace = 'finding' | RelatedRole;

export interface RaceStep {
  readonly holder: Holder;
  /** Where the SARIF step sits; the reported node when the rule did not attach a place of this role. */
  readonly at: StepPlace;
  /** The step in words: the SARIF step's message, and the diagram's note when nothing is sent. */
  readonly text: string;
  /** The command the holder sends, and the reply, as arrows on the page. */
  readonly send?: { readonly to: string; readonly command: string; readonly reply?: string };
  /** Notes on the page after the step, over participants (`R`, `A,B`). */
  readonly notes?: readonly { readonly over: string; readonly text: string }[];
}

export interface RaceTimeline {
  readonly rule: string;
  /** The code flow's message. */
  readonly title: string;
  readonly holders: readonly Holder[];
  /** Participants that are not holders (`R` for Redis), with the name the page shows. */
  readonly servers: readonly { readonly id: string; readonly name: string }[];
  /** In the order the race runs: a step's position is its SARIF `executionOrder`. */
  readonly steps: readonly RaceStep[];
}

const REDIS = { id: 'R', name: 'Redis' } as const;
const POSTGRES = { id: 'DB', name: 'PostgreSQL' } as const;

function acquires(holder: Holder, text: string, reply = `OK (${holder} holds the lock)`): RaceStep {
  return { holder, at: 'acquisition', text, send: { to: 'R', command: `SET lock:invoice token${holder} NX PX 30000`, reply } };
}

function pausesPastTtl(holder: Holder): RaceStep {
  return {
    holder,
    at: 'acquisition',
    text: `${holder} pauses (GC, slow I/O) for longer than the 30 s TTL`,
    notes: [{ over: 'R', text: 'lock:invoice expires' }],
  };
}

export const RACE_TIMELINES: readonly RaceTimeline[] = [
  {
    rule: 'no-check-then-set',
    title: 'Two holders read the lock free before either writes it, and both take it',
    holders: ['A', 'B'],
    servers: [REDIS],
    steps: [
      {
        holder: 'A',
        at: 'read',
        text: 'A reads the lock key and finds it free',
        send: { to: 'R', command: 'GET lock:invoice', reply: 'nil (free)' },
      },
      {
        holder: 'B',
        at: 'read',
        text: 'B reads the lock key and finds it free too',
        send: { to: 'R', command: 'GET lock:invoice', reply: 'nil (free)' },
      },
      {
        holder: 'A',
        at: 'finding',
        text: 'A writes the lock key and believes it holds the lock',
        send: { to: 'R', command: 'SET lock:invoice tokenA', reply: 'OK (A believes it holds the lock)' },
      },
      {
        holder: 'B',
        at: 'finding',
        text: "B writes the lock key over A's value and believes it holds the lock too",
        send: { to: 'R', command: 'SET lock:invoice tokenB', reply: "OK (B believes it holds the lock, A's value is gone)" },
        notes: [{ over: 'A,B', text: 'A and B run the job at the same time' }],
      },
    ],
  },
  {
    rule: 'no-split-acquire',
    title: 'A holder dies between taking the lock and giving it an expiry, and the lock is never freed',
    holders: ['A', 'B'],
    servers: [REDIS],
    steps: [
      {
        holder: 'A',
        at: 'acquisition',
        text: 'A takes the lock with no expiry yet',
        send: { to: 'R', command: 'SETNX lock:invoice tokenA', reply: '1 (A holds the lock, no TTL yet)' },
      },
      { holder: 'A', at: 'finding', text: 'A is killed before the separate expiry command runs' },
      {
        holder: 'B',
        at: 'acquisition',
        text: "B tries to take the lock and finds A's, which never expires",
        send: { to: 'R', command: 'SETNX lock:invoice tokenB', reply: "0 (A's lock is still there)" },
        notes: [{ over: 'R', text: 'lock:invoice never expires' }],
      },
      {
        holder: 'B',
        at: 'acquisition',
        text: 'An hour later B tries again and still finds the lock of A, long gone',
        send: { to: 'R', command: 'SETNX lock:invoice tokenB (an hour later)', reply: "0 (still A's, A is long gone)" },
        notes: [{ over: 'A,B', text: 'Nobody runs the job until an operator deletes the key' }],
      },
    ],
  },
  {
    rule: 'no-unsafe-extend',
    title: "A holder that lost its lock extends the next holder's lock, which then outlives that holder",
    holders: ['A', 'B', 'C'],
    servers: [REDIS],
    steps: [
      acquires('A', 'A acquires the lock with a 30 s TTL'),
      pausesPastTtl('A'),
      acquires('B', 'B acquires the lock A lost'),
      { holder: 'B', at: 'acquisition', text: 'B crashes while it holds the lock' },
      {
        holder: 'A',
        at: 'finding',
        text: "A's renewal extends the lock without comparing its token: it extends B's lock",
        send: { to: 'R', command: 'PEXPIRE lock:invoice 30000', reply: "1 (A extends B's lock)" },
      },
      acquires('C', 'C is locked out by a lock nobody holds', 'null (C is locked out by a lock nobody holds)'),
    ],
  },
  {
    rule: 'no-unsafe-release',
    title: "A holder that lost its lock deletes the next holder's lock, and a third enters beside it",
    holders: ['A', 'B', 'C'],
    servers: [REDIS],
    steps: [
      acquires('A', 'A acquires the lock with a 30 s TTL'),
      pausesPastTtl('A'),
      acquires('B', 'B acquires the lock A lost'),
      {
        holder: 'A',
        at: 'finding',
        text: "A releases without comparing its token: it deletes B's lock",
        send: { to: 'R', command: 'DEL lock:invoice', reply: "1 (A deleted B's lock)" },
      },
      {
        ...acquires('C', 'C acquires the lock while B still works under it'),
        notes: [{ over: 'B,C', text: 'B and C run at the same time, and nobody knows' }],
      },
    ],
  },
  {
    rule: 'require-fencing-token',
    title: 'A holder that lost its lock writes after the next holder, and nothing rejects the stale write',
    holders: ['A', 'B'],
    servers: [REDIS, POSTGRES],
    steps: [
      acquires('A', 'A acquires the lock with a 30 s TTL'),
      pausesPastTtl('A'),
      acquires('B', 'B acquires the lock A lost'),
      {
        holder: 'B',
        at: 'finding',
        text: 'B writes the resource the lock guards',
        send: { to: 'DB', command: 'UPDATE invoice_state SET ... WHERE id = 7', reply: '1 row' },
      },
      {
        holder: 'A',
        at: 'finding',
        text: "A wakes and writes with no fencing token the store could reject: its stale write lands on B's",
        send: { to: 'DB', command: 'UPDATE invoice_state SET ... WHERE id = 7', reply: "1 row (A's stale write lands on top of B's)" },
      },
    ],
  },
];

const BY_RULE = new Map(RACE_TIMELINES.map((timeline) => [timeline.rule, timeline]));

export function timelineOf(ruleId: string): RaceTimeline | undefined {
  return BY_RULE.get(ruleId);
}

/** The SARIF thread flow id of a holder. */
export function threadFlowId(holder: Holder): string {
  return `holder-${holder}`;
}

/** The timeline as the body of a Mermaid `sequenceDiagram`, one line per arrow or note. */
export function mermaidSequence(timeline: RaceTimeline): string {
  const lines = ['sequenceDiagram'];
  const [first, ...others] = timeline.holders;
  // Holder A, then the servers, then the other holders: the arrows of the first holder stay short.
  if (first !== undefined) lines.push(`    participant ${first} as Worker ${first}`);
  for (const server of timeline.servers) lines.push(`    participant ${server.id} as ${server.name}`);
  for (const holder of others) lines.push(`    participant ${holder} as Worker ${holder}`);
  for (const step of timeline.steps) {
    if (step.send === undefined) {
      lines.push(`    Note over ${step.holder}: ${step.text}`);
    } else {
      lines.push(`    ${step.holder}->>${step.send.to}: ${step.send.command}`);
      if (step.send.reply !== undefined) lines.push(`    ${step.send.to}-->>${step.holder}: ${step.send.reply}`);
    }
    for (const note of step.notes ?? []) lines.push(`    Note over ${note.over}: ${note.text}`);
  }
  return lines.join('\n');
}
