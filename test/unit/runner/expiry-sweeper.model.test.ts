// @vitest-environment node
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExpirySweeper, type ExpiryLease, type SettleOutcome, type ThreadDeadline } from '../../../src/runner/expiry';
import type { ThreadChangeListener } from '../../../src/runner/notifications';

// The expiry sweeper's scheduling, as a model: threads raise interrupts with deadlines, people
// answer them, runs hold threads, the store goes away and comes back, the lease is lost and
// taken again, and time passes. The store here is the sweeper's port (its deadlines as rows would
// give them); the real stores run the same sweeper in the runner suites. After every step:
// no thread is settled before its deadline, none twice for one raise, none after an answer; and
// once the store is up and the lease held, every deadline passed is settled within a few checks.

const CHECK_MS = 100;
/** How long after its deadline a thread must be settled, once nothing stands in the way: a full reread comes every FULL_READ_EVERY checks. */
const WITHIN_MS = CHECK_MS * 12;

interface Thread {
  /** Which raise this is (a thread may raise again after it was settled or answered). */
  raise: number;
  settleAt: number;
  open: boolean;
  /** A run holds the thread: settling it now is `busy`. */
  busy: boolean;
  settled: Array<{ raise: number; at: number }>;
}

class World {
  threads = new Map<string, Thread>();
  storeUp = true;
  listeners = new Set<ThreadChangeListener>();
  seq = 0;
  leaseHeld = false;
  lost = new Set<() => void>();
  /** What went wrong inside the sweeper's calls (it catches what a call throws, so it is noted here). */
  violations: string[] = [];
  /** Since when nothing stood in the way of settling (store up, lease free or held): for the liveness check. */
  clearSince = Date.now();

  change(threadId: string) {
    for (const listener of [...this.listeners]) listener({ threadId, seq: ++this.seq });
  }

  deadlines(threadIds?: readonly string[]): ThreadDeadline[] {
    if (!this.storeUp) throw new Error('store away');
    return [...this.threads.entries()]
      .filter(([threadId, thread]) => thread.open && (!threadIds || threadIds.includes(threadId)))
      .map(([threadId, thread]) => ({
        threadId,
        agentId: 'default',
        interruptIds: [`${threadId}#${thread.raise}`],
        settleAt: thread.settleAt,
      }));
  }

  settle(deadline: ThreadDeadline): SettleOutcome {
    if (!this.storeUp) throw new Error('store away');
    const thread = this.threads.get(deadline.threadId)!;
    const raise = Number(deadline.interruptIds[0].split('#')[1]);
    if (thread.raise === raise && Date.now() < thread.settleAt)
      this.violations.push(`${deadline.threadId} settled ${thread.settleAt - Date.now()} ms before its deadline`);
    // The row claim: only the interrupts still open, and only those of this raise.
    if (!thread.open || thread.raise !== raise) return 'answered';
    if (thread.busy) return 'busy';
    thread.open = false;
    thread.settled.push({ raise, at: Date.now() });
    this.change(deadline.threadId);
    return 'settled';
  }
}

type Command = fc.AsyncCommand<World, ExpirySweeper>;
const THREADS = ['t0', 't1', 't2'];

class Raise implements Command {
  constructor(
    readonly threadId: string,
    readonly inMs: number,
  ) {}
  check = () => true;
  async run(world: World) {
    const thread = world.threads.get(this.threadId);
    // A thread raises again only once its last set is no longer open.
    if (thread?.open) return;
    world.threads.set(this.threadId, {
      raise: (thread?.raise ?? 0) + 1,
      settleAt: Date.now() + this.inMs,
      open: true,
      busy: false,
      settled: thread?.settled ?? [],
    });
    world.change(this.threadId);
    await vi.advanceTimersByTimeAsync(0);
  }
  toString = () => `raise(${this.threadId}, +${this.inMs} ms)`;
}

class Answer implements Command {
  constructor(readonly threadId: string) {}
  check = () => true;
  async run(world: World) {
    const thread = world.threads.get(this.threadId);
    if (!thread?.open || Date.now() >= thread.settleAt) return;
    thread.open = false;
    world.change(this.threadId);
    await vi.advanceTimersByTimeAsync(0);
  }
  toString = () => `answer(${this.threadId})`;
}

class Hold implements Command {
  constructor(
    readonly threadId: string,
    readonly busy: boolean,
  ) {}
  check = () => true;
  async run(world: World) {
    const thread = world.threads.get(this.threadId);
    if (!thread) return;
    thread.busy = this.busy;
    // A run's end is a change of its thread.
    if (!this.busy) world.change(this.threadId);
    await vi.advanceTimersByTimeAsync(0);
  }
  toString = () => `${this.busy ? 'hold' : 'release'}(${this.threadId})`;
}

class Store implements Command {
  constructor(readonly up: boolean) {}
  check = () => true;
  async run(world: World) {
    world.storeUp = this.up;
    if (this.up) world.clearSince = Date.now();
    await vi.advanceTimersByTimeAsync(0);
  }
  toString = () => `store ${this.up ? 'up' : 'down'}`;
}

class LoseLease implements Command {
  check = () => true;
  async run(world: World) {
    if (!world.leaseHeld) return;
    world.leaseHeld = false;
    world.clearSince = Date.now();
    for (const listener of [...world.lost]) listener();
    await vi.advanceTimersByTimeAsync(0);
  }
  toString = () => 'lose the lease';
}

class Wait implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(world: World) {
    await vi.advanceTimersByTimeAsync(this.ms);
    checkInvariants(world);
  }
  toString = () => `wait ${this.ms} ms`;
}

function checkInvariants(world: World) {
  expect(world.violations).toEqual([]);
  for (const [threadId, thread] of world.threads) {
    // Once per raise, never before its deadline.
    const raises = thread.settled.map((s) => s.raise);
    expect(new Set(raises).size, `${threadId} settled twice for one raise`).toBe(raises.length);
    // Liveness: nothing in the way for long enough, and the deadline well past: settled.
    const blockedUntil = Math.max(thread.settleAt, world.clearSince);
    if (thread.open && !thread.busy && world.storeUp && Date.now() - blockedUntil > WITHIN_MS) {
      expect.fail(`${threadId} (raise ${thread.raise}) is still open ${Date.now() - thread.settleAt} ms after its deadline`);
    }
  }
}

const commands = [
  fc.tuple(fc.constantFrom(...THREADS), fc.integer({ min: 0, max: 3_000 })).map(([t, ms]) => new Raise(t, ms)),
  fc.constantFrom(...THREADS).map((t) => new Answer(t)),
  fc.tuple(fc.constantFrom(...THREADS), fc.boolean()).map(([t, busy]) => new Hold(t, busy)),
  fc.boolean().map((up) => new Store(up)),
  fc.constant(new LoseLease()),
  fc.integer({ min: 1, max: 2_000 }).map((ms) => new Wait(ms)),
];

describe('the expiry sweeper, as a model', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.UTC(2030, 0, 1) }));
  afterEach(() => vi.useRealTimers());

  it('settles every passed deadline once, never early, never an answered one, whatever the store, the lease and the runs do', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        const world = new World();
        world.clearSince = Date.now();
        const lease: ExpiryLease = {
          acquire: async () => (world.leaseHeld = world.storeUp ? true : world.leaseHeld),
          get held() {
            return world.leaseHeld;
          },
          onLost: (listener) => (world.lost.add(listener), () => void world.lost.delete(listener)),
          release: async () => void (world.leaseHeld = false),
        };
        const sweeper = new ExpirySweeper({
          store: {
            deadlines: async (threadIds) => world.deadlines(threadIds),
            now: async () => {
              if (!world.storeUp) throw new Error('store away');
              return Date.now();
            },
          },
          lease,
          settle: async (deadline) => world.settle(deadline),
          changes: { subscribeChanges: (listener) => (world.listeners.add(listener), () => void world.listeners.delete(listener)) },
          checkEveryMs: CHECK_MS,
        });
        sweeper.start();
        try {
          await fc.asyncModelRun(() => ({ model: world, real: sweeper }), cmds);
          // Then the store stays up and time passes: every deadline is settled.
          world.storeUp = true;
          for (const thread of world.threads.values()) thread.busy = false;
          world.clearSince = Date.now();
          await vi.advanceTimersByTimeAsync(3_000 + WITHIN_MS + CHECK_MS);
          checkInvariants(world);
          for (const [threadId, thread] of world.threads) expect(thread.open, `${threadId} never settled`).toBe(false);
        } finally {
          await sweeper.stop();
        }
      }),
      { numRuns: 60 },
    );
  });
});
