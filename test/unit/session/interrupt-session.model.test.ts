// @vitest-environment node
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InterruptSession,
  keyOf,
  statusOf,
  type InterruptAnswer,
  type InterruptKey,
  type SessionBatch,
  type SessionDecision,
} from '../../../src/session';

/**
 * The world around the session: what the user answered, what the agent received, which cards
 * show an error, and the sends still on their way. Commands act like a user, the network and
 * React; after each one the invariants of issue 13 must hold.
 */
interface World {
  session: InterruptSession;
  now: { t: number };
  threads: number;
  /** Every key ever raised, so commands can pick one (stale ones included). */
  keys: InterruptKey[];
  /** What the user answered, per key. */
  answers: Map<string, InterruptAnswer>;
  expiredKeys: Set<string>;
  paintsDue: InterruptKey[];
  inflight: SessionBatch[];
  /** Resume entries the agent received, per key. */
  received: Map<string, Array<{ status: string; payload?: unknown }>>;
  /** Every batch ever sent, with whether it reached the agent. */
  sentBatches: SessionBatch[];
  deliveredBatches: SessionBatch[];
  /** How many times the agent stopped for each interrupt id, per thread. */
  raisedTimes: Map<string, number>;
  policy: 'dismiss' | 'block';
  /** Threads the chat left with a set open: the run and ids its replay raises again, and the set left. */
  left: Map<string, { runId: string; ids: string[]; keys: InterruptKey[] }>;
  /** Keys another device (or a replay of the thread) settled: this tab must never send them after. */
  settledElsewhere: Set<string>;
  /** Keys of interrupts that shared their id with another of the same stop. */
  shared: Set<string>;
}

/** The id the runner gives to someone else: this viewer reads its card and may not answer it. */
const THEIRS = 'theirs';
const raisedAs = (id: string, expiresAt?: string) => ({ id, expiresAt, ...(id === THEIRS && { forOthers: true }) });

const threadAndId = (threadId: string, id: string) => `${threadId}\u0000${id}`;

const keysOf = (keys: readonly InterruptKey[] | undefined) => (keys ?? []).map(keyOf).sort();

/**
 * Every effect is a decision the adapter carries out, never something the session does: a send
 * comes with the writes that go with it (its records, the app told of the user's answers, AG-UI's
 * client letting go of the expired ones), and the app is told of nothing else.
 */
function checkEffects(world: World, decisions: SessionDecision[]) {
  decisions.forEach((d, n) => {
    if (d.type === 'send') {
      const before = decisions.slice(0, n);
      const { told, expired, keys } = d.batch;
      expect(before.some((b) => b.type === 'record' && keysOf(b.keys).join() === keysOf(keys).join())).toBe(true);
      if (told.length) expect(before.some((b) => b.type === 'tell-app' && keysOf(b.keys).join() === keysOf(told).join())).toBe(true);
      if (expired.length)
        expect(before.some((b) => b.type === 'forget-pending' && keysOf(b.keys).join() === keysOf(expired).join())).toBe(true);
    }
    // The app hears only of answers on their way, with their send.
    if (d.type === 'tell-app')
      expect(decisions.slice(n).some((s) => s.type === 'send' && d.keys.every((k) => s.batch.keys.includes(k)))).toBe(true);
  });
  // The session hands out copies: what the adapter reads cannot change it.
  for (const key of world.session.openSet) expect(Object.isFrozen(world.session.get(key))).toBe(true);
  expect(Object.isFrozen(world.session.openSet)).toBe(true);
}

function apply(world: World, decisions: SessionDecision[]) {
  checkEffects(world, decisions);
  for (const d of decisions) {
    if (d.type === 'after-paint') world.paintsDue.push(d.key);
    if (d.type === 'send') {
      // One resume at a time: nothing goes while another is on its way.
      expect(world.inflight).toEqual([]);
      // Never an answer for an interrupt the thread already shows settled by another answer.
      for (const key of d.batch.keys) expect(world.settledElsewhere.has(keyOf(key))).toBe(false);
      // The app hears only of answers the user gave (never a card a chat message dismissed, one
      // that expired or one refused), and AG-UI's client lets go of exactly the expired ones.
      for (const key of d.batch.told) {
        expect(d.batch.keys).toContainEqual(key);
        expect(world.answers.has(keyOf(key))).toBe(true);
        expect(world.session.get(key)?.dismissed).toBeFalsy();
      }
      for (const key of d.batch.expired) expect(world.session.get(key)?.phase).toBe('expired');
      // A card given to someone else is never dismissed by a chat message: it goes only with an
      // answer its card gave (one that sends anyway, for the server to refuse), its expiry, or a
      // refusal of its shared id.
      for (const key of d.batch.keys) {
        const entry = world.session.get(key);
        if (entry?.forOthers) expect(world.answers.has(keyOf(key)) || entry?.phase === 'expired' || !!entry?.refused).toBe(true);
      }
      world.inflight.push(d.batch);
      world.sentBatches.push(d.batch);
    }
  }
}

function checkInvariants(world: World) {
  const { session } = world;
  for (const [k, entries] of world.received) {
    // Every answer reaches the agent at most once.
    expect(entries.length).toBeLessThanOrEqual(1);
    const answer = world.answers.get(k);
    const entry = entries[0];
    // Nothing but `cancelled` for an expired interrupt.
    if (world.expiredKeys.has(k) && !answer) expect(entry.status).toBe('cancelled');
    // No answer attributed to another interrupt: what arrived is what the user gave for this key.
    if (answer?.status === 'resolved') {
      // Either the user's own payload, or (answered in time, sent too late) `cancelled` with the card saying why.
      if (entry.status === 'cancelled') expect(session.get(world.keys.find((key) => keyOf(key) === k)!)?.error).toMatch(/expired/);
      else expect(entry).toEqual({ status: 'resolved', payload: answer.payload });
    }
    if (answer?.status === 'cancelled') expect(entry.status).toBe('cancelled');
  }
  // No interrupt id is ever answered twice, whichever road sent it (a set complete, a chat
  // message, Retry): the agent hears at most one answer for each time it stopped for an id.
  const answeredTimes = new Map<string, number>();
  for (const batch of world.deliveredBatches)
    for (const entry of batch.resume) {
      const id = threadAndId(batch.threadId, entry.interruptId);
      answeredTimes.set(id, (answeredTimes.get(id) ?? 0) + 1);
    }
  for (const [id, times] of answeredTimes) expect(times).toBeLessThanOrEqual(world.raisedTimes.get(id) ?? 0);
  // One resume per answered set: no key in two delivered batches.
  const seen = new Set<string>();
  for (const batch of world.deliveredBatches) {
    for (const key of batch.keys) {
      expect(seen.has(keyOf(key))).toBe(false);
      seen.add(keyOf(key));
    }
    // A resume addresses each interrupt once.
    expect(new Set(batch.resume.map((e) => e.interruptId)).size).toBe(batch.resume.length);
  }
  // A failed card always says why.
  for (const key of world.keys) {
    const entry = session.get(key);
    if (entry?.phase === 'failed') expect(entry.error).toMatch(/\S/);
    // "Dismissed" only on a card the user did not answer: a chat message closed it.
    if (entry && statusOf(entry) === 'dismissed') expect(world.answers.has(keyOf(key))).toBe(false);
  }
  // Interrupts sharing an id are never answered with a payload: the user could not see what one
  // answer would cover. Their cards say why, unless the thread shows them settled.
  for (const batch of world.deliveredBatches)
    for (const key of batch.keys)
      if (world.shared.has(keyOf(key))) expect(batch.resume.find((r) => r.interruptId === key.id)?.status).toBe('cancelled');
  for (const key of world.keys)
    if (world.shared.has(keyOf(key)))
      expect(session.get(key)).toMatchObject({ phase: 'failed', refused: true, error: expect.stringMatching(/^Refused/) });
  // The session knows whether a resume is on its way, and asks to answer first only for a card still open.
  expect(session.sending).toBe(world.inflight.length > 0);
  for (const key of world.keys)
    if (session.asksToAnswerFirst(key)) {
      // Asked by 'block', or by a card given to someone else: the chat waits for its answer.
      expect(world.policy === 'block' || !!session.get(key)?.forOthers).toBe(true);
      expect(session.get(key)?.phase).toBe('open');
      expect(session.openSet.some((k) => keyOf(k) === keyOf(key))).toBe(true);
    }
  // An answer waiting for its siblings is never lost: it is in the open set, or kept with its
  // thread, or (its set gone) its paint is still due, and then its card says it was not sent.
  for (const key of world.keys) {
    const entry = session.get(key);
    if (entry?.phase !== 'answered') continue;
    const waitsIn = [...session.openSet, ...session.keptSet(key.threadId), ...world.paintsDue];
    expect(waitsIn.some((k) => keyOf(k) === keyOf(key))).toBe(true);
  }
  // Every interrupt has a record id of its own within its thread: no card shows another's record.
  const entries = [...new Map(world.keys.map((key) => [keyOf(key), session.get(key)])).values()].filter((e) => e !== undefined);
  const recordIds = entries.map((e) => `${e.key.threadId}\u0000${e.recordId}`);
  expect(new Set(recordIds).size).toBe(recordIds.length);
}

type Cmd = fc.Command<object, World>;
const pick = <T>(items: readonly T[], n: number): T | undefined => (items.length ? items[n % items.length] : undefined);

class Raise implements Cmd {
  constructor(
    readonly ids: string[],
    readonly runId: string,
    readonly expiring: boolean,
  ) {}
  check = () => true;
  run(_: object, w: World) {
    // Run ids repeat on purpose: a resume run keeps the id of the run it continues.
    const expiresAt = this.expiring ? new Date(w.now.t + 1000).toISOString() : undefined;
    apply(
      w,
      w.session.raised(
        this.runId,
        this.ids.map((id) => raisedAs(id, expiresAt)),
      ),
    );
    w.keys.push(...w.session.openSet);
    for (const key of w.session.openSet) if (this.ids.filter((id) => id === key.id).length > 1) w.shared.add(keyOf(key));
    for (const id of new Set(this.ids)) {
      const k = threadAndId(w.session.threadId, id);
      w.raisedTimes.set(k, (w.raisedTimes.get(k) ?? 0) + 1);
    }
  }
  toString = () => `raise(${this.ids.join(',')} in ${this.runId}${this.expiring ? ', expiring' : ''})`;
}

class Answer implements Cmd {
  constructor(
    readonly n: number,
    readonly answer: InterruptAnswer,
  ) {}
  check = () => true;
  run(_: object, w: World) {
    const key = pick(w.keys, this.n);
    if (!key) return;
    const before = w.session.get(key)?.phase;
    const decisions = w.session.answered(key, this.answer);
    if (before === 'open' && w.session.get(key)?.phase === 'answered') w.answers.set(keyOf(key), this.answer);
    apply(w, decisions);
  }
  toString = () => `answer(${this.n}, ${JSON.stringify(this.answer)})`;
}

class Paint implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    const due = w.paintsDue.splice(0);
    for (const key of due) apply(w, w.session.painted(key));
  }
  toString = () => 'paint';
}

class Expire implements Cmd {
  constructor(readonly n: number) {}
  check = () => true;
  run(_: object, w: World) {
    const key = pick(w.keys, this.n);
    if (!key) return;
    if (w.session.get(key)?.phase === 'open') w.expiredKeys.add(keyOf(key));
    apply(w, w.session.expired(key));
  }
  toString = () => `expire(${this.n})`;
}

class Chat implements Cmd {
  constructor(readonly agentWaits = true) {}
  check = () => true;
  run(_: object, w: World) {
    const before = w.session.openSet.map((k) => w.session.get(k));
    const decisions = w.session.chatSent({ agentWaits: this.agentWaits });
    // A client that waits on nothing refuses no run: the message concerns no card.
    if (!this.agentWaits) {
      expect(decisions).toEqual([{ type: 'nothing' }]);
      expect(w.session.openSet.map((k) => w.session.get(k))).toEqual(before);
    }
    apply(w, decisions);
  }
  toString = () => `chat${this.agentWaits ? '' : ' (nothing pending)'}`;
}

/**
 * A run sends a legacy `on_interrupt` event and finishes, with a standard set as well or without:
 * a run that sent both stopped once, for its set; one that sent only the event stops for it.
 */
class LegacyRun implements Cmd {
  constructor(
    readonly runId: string,
    readonly withSet: boolean,
  ) {}
  check = () => true;
  run(_: object, w: World) {
    const legacy = { id: `legacy-${this.runId}`, legacyEvent: { question: 'Go?' } };
    w.session.legacyEventSent({ runId: this.runId, value: legacy.legacyEvent, event: legacy, anchor: null, interrupts: [legacy] });
    const interrupts = this.withSet ? [{ id: 'a' }] : undefined;
    const decisions = w.session.runFinished({
      threadId: w.session.threadId,
      runId: this.runId,
      raisedIn: this.runId,
      interrupts,
      source: interrupts,
    });
    const draws = decisions.filter((d) => d.type === 'draw');
    expect(draws).toHaveLength(1);
    expect(draws[0]).toMatchObject({ kind: this.withSet ? 'standard' : 'legacy' });
    const open = w.session.openSet.map((k) => w.session.get(k)!);
    // Never a card for the event of a run that stopped for a set: one request, one card.
    if (this.withSet) expect(open.some((e) => e.legacy)).toBe(false);
    else if (open.length) expect(open.map((e) => [e.key.id, e.legacy])).toEqual([[legacy.id, true]]);
    apply(w, decisions);
    w.keys.push(...w.session.openSet);
    for (const key of w.session.openSet) {
      const k = threadAndId(w.session.threadId, key.id);
      w.raisedTimes.set(k, (w.raisedTimes.get(k) ?? 0) + 1);
    }
    // A chat message never carries the answer of a legacy event: CopilotKit drops the event.
    if (!this.withSet && open.length) expect(w.session.chatRunStarting()).toEqual([{ type: 'nothing' }]);
  }
  toString = () => `legacy-run(${this.runId}${this.withSet ? ', with a set' : ''})`;
}

/**
 * The thread is read again and the runner gives a card to this viewer, or to someone else: an
 * open card follows the new word (the viewer's count with it), a settled one keeps its own.
 */
class PeopleRead implements Cmd {
  constructor(
    readonly n: number,
    readonly forOthers: boolean,
  ) {}
  check = () => true;
  run(_: object, w: World) {
    const key = pick(w.keys, this.n);
    if (!key) return;
    const before = w.session.get(key);
    const count = w.session.waitingOnViewer;
    expect(w.session.peopleRead(key, { forOthers: this.forOthers })).toEqual([{ type: 'nothing' }]);
    const after = w.session.get(key);
    const open = before?.phase === 'open';
    expect(!!after?.forOthers).toBe(open ? this.forOthers : !!before?.forOthers);
    // The count moves by this card alone, and only while it is open in the set the agent waits on.
    const counted = (forOthers: boolean) => (open && w.session.openSet.some((k) => keyOf(k) === keyOf(key)) && !forOthers ? 1 : 0);
    expect(w.session.waitingOnViewer - count).toBe(counted(!!after?.forOthers) - counted(!!before?.forOthers));
  }
  toString = () => `people-read(${this.n}, ${this.forOthers ? 'theirs' : 'mine'})`;
}

/** CopilotKit shows the open set again (a render): the session holds it already, nothing changes. */
class ShownAgain implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    const open = w.session.openSet;
    if (!open.length) return;
    const stops = w.session.stops;
    const decisions = w.session.shown({ threadId: w.session.threadId, kind: 'standard', interrupts: open.map((k) => ({ id: k.id })) });
    expect(decisions).toEqual([{ type: 'nothing' }]);
    expect(w.session.stops).toBe(stops);
    apply(w, decisions);
  }
  toString = () => 'shown-again';
}

/** The app asks to read the thread again: only while cards wait here and nothing is on its way. */
class Reread implements Cmd {
  constructor(readonly possible: boolean) {}
  check = () => true;
  run(_: object, w: World) {
    const decisions = w.session.rereadWanted({ possible: this.possible });
    const waiting = w.session.openSet.some((k) => ['open', 'answered'].includes(w.session.get(k)!.phase));
    const wanted = this.possible && waiting && !w.session.sending && !w.session.away;
    expect(decisions).toEqual(wanted ? [{ type: 'reread' }] : [{ type: 'nothing' }]);
    apply(w, decisions);
  }
  toString = () => `reread(${this.possible ? 'possible' : 'not possible'})`;
}

/**
 * The resume on its way is refused because the requests changed: no Retry for it, and the
 * requests open now are raised (the one with a new id marked changed), the agent's pending list
 * set to them, and drawn.
 */
class RefusedAsChanged implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    const batch = w.inflight.shift();
    if (!batch) return;
    const reopen = [...new Set(batch.keys.map((k) => k.id)), 'renamed'].map((id) => ({ id }));
    const decisions = w.session.batchEnded(batch, { failure: 'This request changed.', refusal: { final: true, reopen } });
    for (const key of batch.keys) expect(w.session.canRetry(key)).toBe(false);
    if (batch.threadId === w.session.threadId) {
      expect(decisions).toContainEqual({ type: 'set-pending', interrupts: reopen });
      expect(decisions).toContainEqual(expect.objectContaining({ type: 'draw', reopened: true }));
      expect(w.session.openSet.map((k) => [k.id, !!w.session.get(k)!.changed])).toEqual(reopen.map((r) => [r.id, r.id === 'renamed']));
      w.keys.push(...w.session.openSet);
      for (const key of w.session.openSet) {
        const k = threadAndId(w.session.threadId, key.id);
        w.raisedTimes.set(k, (w.raisedTimes.get(k) ?? 0) + 1);
      }
    } else expect(decisions.filter((d) => d.type === 'set-pending' || d.type === 'draw')).toEqual([]);
    apply(w, decisions);
  }
  toString = () => 'refused-as-changed';
}

/** The chat starts a run for the user's message: what the agent is owed goes with it, or it is held. */
class ChatRun implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    const openBefore = w.session.openSet.map((k) => w.session.get(k)!.phase);
    const theirsOpen = w.session.openSet.some((k) => w.session.get(k)!.forOthers && w.session.get(k)!.phase === 'open');
    const decisions = w.session.chatRunStarting();
    const sends = decisions.filter((d) => d.type === 'send');
    // Held only when the user must answer first, or a card waits for someone else; then nothing is sent.
    if (decisions.some((d) => d.type === 'hold-chat-run')) {
      expect(w.policy === 'block' || theirsOpen).toBe(true);
      expect(openBefore).toContain('open');
      expect(sends).toEqual([]);
    }
    // Whatever is sent goes with the chat's own run, and carries the message.
    for (const d of sends) expect(d.type === 'send' && d.batch.inChatRun && d.batch.withChat).toBe(true);
    apply(w, decisions);
  }
  toString = () => 'chat-run';
}

class Settle implements Cmd {
  constructor(
    readonly ok: boolean,
    readonly how: 'finished' | 'cut off' | 'final' = 'finished',
  ) {}
  check = () => true;
  run(_: object, w: World) {
    const batch = w.inflight.shift();
    if (!batch) return;
    if (!this.ok) {
      // A refusal the same answers would meet again offers no Retry.
      const final = this.how === 'final';
      const decisions = w.session.batchEnded(batch, { failure: 'The resume run failed.', refusal: { final } });
      apply(w, decisions);
      if (final) for (const key of batch.keys) expect(w.session.canRetry(key)).toBe(false);
      return;
    }
    w.deliveredBatches.push(batch);
    for (const entry of batch.resume) {
      const k = keyOf(batch.keys.find((key) => key.id === entry.interruptId)!);
      // What the agent received for this interrupt, without the id that addressed it.
      const rest = entry.status === 'resolved' ? { status: entry.status, payload: entry.payload } : { status: entry.status };
      w.received.set(k, [...(w.received.get(k) ?? []), rest]);
    }
    const cutOff = this.how === 'cut off';
    const decisions = w.session.batchEnded(batch, { cutOff });
    // A run the chat stopped following ends unseen by AG-UI's client: its interrupts go from the pending list.
    const forgot = decisions.filter((d) => d.type === 'forget-pending');
    expect(forgot).toEqual(cutOff ? [{ type: 'forget-pending', keys: batch.keys }] : []);
    apply(w, decisions);
  }
  toString = () => `${this.ok ? 'deliver' : 'fail'} (${this.how})`;
}

class Retry implements Cmd {
  constructor(readonly n: number) {}
  check = () => true;
  run(_: object, w: World) {
    const key = pick(w.keys, this.n);
    if (key) apply(w, w.session.retry(key));
  }
  toString = () => `retry(${this.n})`;
}

class Remount implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    w.paintsDue = []; // the unmounted adapter's timers are gone
    apply(w, w.session.detached());
    apply(w, w.session.attached());
  }
  toString = () => 'remount';
}

class Tick implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    w.now.t += 700; // expiring interrupts last 1000 ms
  }
  toString = () => 'tick';
}

class ForeignRun implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    apply(w, w.session.otherRunStarted());
  }
  toString = () => 'foreign-run';
}

class SwitchThread implements Cmd {
  check = () => true;
  run(_: object, w: World) {
    const from = w.session.threadId;
    const open = [...w.session.openSet];
    const decisions = w.session.threadSwitched(`t${++w.threads}`);
    // A set left open stays with its thread, and the agent's client stops counting it as pending.
    if (open.length) {
      expect(decisions).toEqual([{ type: 'forget-pending' }]);
      expect(decisions[0]).not.toHaveProperty('keys'); // all of them
      expect(w.session.keptSet(from)).toEqual(open);
      w.left.set(from, { runId: open[0].runId, ids: open.map((k) => k.id), keys: open });
    }
    expect(w.session.openSet).toEqual([]);
    apply(w, decisions);
  }
  toString = () => 'switch-thread';
}

/** The chat shows a thread it left again, and the thread's replay raises the set it left. */
class ReturnToThread implements Cmd {
  constructor(readonly n: number) {}
  check = () => true;
  run(_: object, w: World) {
    const thread = pick([...w.left.keys()], this.n);
    if (!thread || thread === w.session.threadId) return;
    const left = w.left.get(thread)!;
    w.left.delete(thread);
    apply(w, w.session.threadSwitched(thread));
    const kept = [...w.session.keptSet(thread)];
    apply(
      w,
      w.session.raised(
        left.runId,
        left.ids.map((id) => raisedAs(id)),
      ),
    );
    // Back in the thread, the open set is the one left (unless the thread moved on meanwhile).
    if (kept.length) expect(w.session.openSet.every((k, i) => keyOf(k) === keyOf(left.keys[i]))).toBe(true);
  }
  toString = () => `return-to-thread(${this.n})`;
}

/** The thread shows a run that answered the open set (another device, or a replay on connect). */
class AnsweredInThread implements Cmd {
  constructor(
    readonly picks: boolean[],
    readonly withChat: boolean,
  ) {}
  check = () => true;
  run(_: object, w: World) {
    const open = [...w.session.openSet];
    const sending = w.session.sending;
    const resume = open
      .filter((_, i) => this.picks[i % Math.max(1, this.picks.length)])
      .map((k) => ({ interruptId: k.id, status: 'resolved' as const, payload: 'elsewhere' }));
    const decisions = w.session.answeredInThread(resume, { withChat: this.withChat });
    if (!sending) for (const key of open) w.settledElsewhere.add(keyOf(key));
    apply(w, decisions);
  }
  toString = () => `answered-in-thread(${this.picks.join(',')}${this.withChat ? ', with chat' : ''})`;
}

/** The resume on its way is refused: another device answered first, and the refusal names the winners. */
class AnsweredElsewhere implements Cmd {
  constructor(readonly picks: boolean[]) {}
  check = () => true;
  run(_: object, w: World) {
    const batch = w.inflight.shift();
    if (!batch) return;
    const won = batch.keys.filter((_, i) => this.picks[i % Math.max(1, this.picks.length)]);
    const answers = won.map((k) => ({ interruptId: k.id, status: 'cancelled' as const }));
    apply(w, w.session.answeredElsewhere(batch.batchId, answers));
    for (const key of batch.keys) {
      const entry = w.session.get(key)!;
      if (entry.refused) continue;
      // Settled with the answer that won, or failed saying why: never left "Sending…".
      if (won.some((k) => k.id === key.id)) {
        expect(entry).toMatchObject({ elsewhere: true, phase: 'cancelled' });
        w.settledElsewhere.add(keyOf(key));
      } else expect(entry).toMatchObject({ phase: 'failed', error: expect.stringMatching(/another device/) });
    }
  }
  toString = () => `answered-elsewhere(${this.picks.join(',')})`;
}

const answerArb = fc.oneof(
  fc.integer().map((n): InterruptAnswer => ({ status: 'resolved', payload: { n } })),
  fc.constant<InterruptAnswer>({ status: 'cancelled' }),
);
const ids = fc.array(fc.constantFrom('a', 'b', 'fixed', THEIRS), { minLength: 1, maxLength: 3 });
const commands = fc.commands(
  [
    fc.tuple(ids, fc.constantFrom('r1', 'r2'), fc.boolean()).map(([i, r, e]) => new Raise(i, r, e)),
    fc.tuple(fc.nat(), answerArb).map(([n, a]) => new Answer(n, a)),
    fc.constant(new Paint()),
    fc.nat().map((n) => new Expire(n)),
    fc.boolean().map((waits) => new Chat(waits)),
    fc.tuple(fc.constantFrom('r1', 'r2', 'r3'), fc.boolean()).map(([r, s]) => new LegacyRun(r, s)),
    fc.constant(new ShownAgain()),
    fc.tuple(fc.nat(), fc.boolean()).map(([n, theirs]) => new PeopleRead(n, theirs)),
    fc.boolean().map((possible) => new Reread(possible)),
    fc.constant(new RefusedAsChanged()),
    fc.constant(new ChatRun()),
    fc
      .tuple(fc.boolean(), fc.constantFrom('finished' as const, 'cut off' as const, 'final' as const))
      .map(([ok, how]) => new Settle(ok, how)),
    fc.nat().map((n) => new Retry(n)),
    fc.constant(new Remount()),
    fc.constant(new SwitchThread()),
    fc.constant(new Tick()),
    fc.constant(new ForeignRun()),
    fc.nat().map((n) => new ReturnToThread(n)),
    fc.tuple(fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([p, c]) => new AnsweredInThread(p, c)),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }).map((p) => new AnsweredElsewhere(p)),
  ],
  { maxCommands: 40 },
);

function newWorld(policy: 'dismiss' | 'block'): World {
  const now = { t: 0 };
  return {
    session: new InterruptSession({ threadId: 't0', onChatWhileOpen: policy, now: () => now.t }),
    now,
    threads: 0,
    keys: [],
    answers: new Map(),
    expiredKeys: new Set(),
    paintsDue: [],
    inflight: [],
    received: new Map(),
    sentBatches: [],
    deliveredBatches: [],
    raisedTimes: new Map(),
    policy,
    left: new Map(),
    settledElsewhere: new Set(),
    shared: new Set(),
  };
}

/** Let everything on its way land: paints happen, sends succeed. */
function drain(w: World) {
  for (let i = 0; i < 10 && (w.paintsDue.length || w.inflight.length); i++) {
    new Paint().run({}, w);
    while (w.inflight.length) new Settle(true).run({}, w);
  }
}

describe('InterruptSession under random event sequences', () => {
  for (const policy of ['dismiss', 'block'] as const) {
    it(`keeps every answer's promise (onChatWhileOpen: ${policy})`, () => {
      fc.assert(
        fc.property(commands, (cmds) => {
          const world = newWorld(policy);
          fc.modelRun(
            () => ({ model: {}, real: world }),
            [...cmds].map((c) => wrap(c)),
          );
          drain(world);
          checkInvariants(world);
          // Every answer reached the agent exactly once, or its card says why and what can be done.
          for (const key of world.keys) {
            const k = keyOf(key);
            if (!world.answers.has(k)) continue;
            const entry = world.session.get(key)!;
            const got = world.received.get(k)?.length ?? 0;
            if (entry.phase === 'failed') {
              expect(got).toBe(0);
              expect(entry.error).toMatch(/\S/);
            } else {
              expect(['resolved', 'cancelled', 'answered', 'expired']).toContain(entry.phase);
              if (entry.phase === 'expired') expect(entry.error).toMatch(/expired/);
              // Still `answered` only when a sibling is open, here or in a thread the chat left:
              // nothing is lost, it goes with the set. Settled by another answer: this tab sent nothing.
              if (entry.phase === 'answered')
                expect([...world.session.openSet, ...world.session.keptSet(key.threadId)].some((o) => keyOf(o) === k)).toBe(true);
              else if (world.settledElsewhere.has(k)) expect(got).toBe(0);
              else expect(got).toBe(1);
            }
          }
        }),
        { numRuns: 300 },
      );
    });
  }
});

/** Checks the invariants after every command, not only at the end. */
function wrap(cmd: Cmd): Cmd {
  return {
    check: (m) => cmd.check(m),
    run: (m, w) => {
      cmd.run(m, w);
      checkInvariants(w);
    },
    toString: () => cmd.toString(),
  };
}
