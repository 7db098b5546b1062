// @vitest-environment node
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInterruptHistory, type InterruptHistory, type InterruptHistoryPersistence } from '../../../src/history';
import { unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt } from '../../fixtures/interrupts';

const approval = unwrapInterrupt(approvalInterrupt);
const KEY = 'h';
const TOOLS_KEY = `${KEY}-allowed-tools:t`;

const answer = (id: string) => ({
  threadId: 't',
  id,
  reason: approval.reason,
  interrupt: { ...approval, id },
  status: 'resolved' as const,
  result: { approved: true },
  anchor: null,
});
const stored = (id: string, time: number) => ({ ...answer(id), interrupt: { ...approval, id, raw: undefined }, time });

/** Console warnings of the test so far, as text. */
const warnings = () => vi.mocked(console.warn).mock.calls.map(([message]) => String(message));

/** Waits until promises rejected so far have been reported as unhandled, if nobody handled them. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.restoreAllMocks());

describe('history on a store whose writes fail', () => {
  const failures: Record<string, () => unknown> = {
    throws: () => {
      throw new Error('quota');
    },
    'returns a rejected promise': () => Promise.reject(new Error('quota')),
    'returns a thenable that rejects': () => ({ then: (_ok: unknown, fail: (error: Error) => void) => fail(new Error('quota')) }),
  };
  const writes: Record<string, (history: InterruptHistory) => () => unknown> = {
    'an answer': (history) => {
      history.record(answer('a'));
      return () => history.getSnapshot('t').map((r) => r.id);
    },
    'an always-allowed tool': (history) => {
      history.allowTool('t', 'deploy');
      return () => history.allowedTools('t');
    },
  };

  for (const [how, fail] of Object.entries(failures)) {
    for (const [what, write] of Object.entries(writes)) {
      it(`given a store whose set ${how}, when ${what} is stored, should warn once, raise no unhandled rejection and keep it in this tab`, async () => {
        vi.spyOn(console, 'warn').mockImplementation(() => {});
        const unhandled = vi.fn();
        process.on('unhandledRejection', unhandled);
        try {
          const persistence = { get: () => null, set: fail } as InterruptHistoryPersistence;
          const kept = write(createInterruptHistory({ persistence, storageKey: KEY }));
          await settle();
          expect(unhandled).not.toHaveBeenCalled();
          expect(warnings()).toEqual([expect.stringMatching(/Could not store .*thread "t"/)]);
          expect(kept()).toHaveLength(1);
        } finally {
          process.off('unhandledRejection', unhandled);
        }
      });
    }
  }
});

describe('history on a store whose reads fail for a while', () => {
  type Step = { reads: boolean } | 'look' | 'answer';
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.boolean().map((reads) => ({ reads })),
    fc.constant('look'),
    fc.constant('answer'),
  );

  it('given reads that fail and recover in any order around answers, should have every stored record and every answer once reads work (the newest maxPerThread)', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4 }),
        fc.array(step, { maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        (count, steps, max) => {
          const data = new Map<string, string>();
          const old = Array.from({ length: count }, (_, i) => stored(`old-${i}`, i));
          data.set(`${KEY}:t`, JSON.stringify(old));
          let reads = true;
          const persistence: InterruptHistoryPersistence = {
            get: (key) => {
              if (!reads) throw new Error('busy');
              return data.get(key) ?? null;
            },
            set: (key, value) => void data.set(key, value),
          };
          let clock = 100;
          const history = createInterruptHistory({ persistence, storageKey: KEY, maxPerThread: max, now: () => clock++ });
          const answers: string[] = [];
          // What was stored survives unless the first answer came while no read had worked yet:
          // nothing tells that store from one that never reads again, and the answer is stored then
          // (it replaces what could not be read).
          let readOnce = false;
          let replaced = false;
          for (const s of steps) {
            if (typeof s === 'object') reads = s.reads;
            else {
              if (s === 'answer') {
                if (!readOnce && !reads && answers.length === 0) replaced = true;
                const id = `new-${answers.length}`;
                answers.push(id);
                // As a card answers: sending first, then settled when the run is over.
                history.record({ ...answer(id), status: 'submitting' });
                history.update('t', id, { status: 'resolved' });
              } else history.getSnapshot('t');
              readOnce ||= reads;
            }
          }
          reads = true;
          const expected = [...(replaced ? [] : old.map((r) => r.id)), ...answers].slice(-max);
          expect(history.getSnapshot('t').map((r) => r.id)).toEqual(expected);
          expect(
            createInterruptHistory({ persistence, storageKey: KEY, maxPerThread: max })
              .getSnapshot('t')
              .map((r) => r.id),
          ).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('given a store that cannot be read, should warn once per thread and keep the same snapshot, however often it is read', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const data = new Map<string, string>();
    let reads = false;
    const history = createInterruptHistory({
      storageKey: KEY,
      persistence: {
        get: (key) => {
          if (!reads) throw new Error('busy');
          return data.get(key) ?? null;
        },
        set: (key, value) => void data.set(key, value),
      },
    });
    const first = history.getSnapshot('t');
    for (let i = 0; i < 5; i++) expect(history.getSnapshot('t')).toBe(first);
    history.record(answer('a'));
    const answered = history.getSnapshot('t');
    expect(history.getSnapshot('t')).toBe(answered);
    history.getSnapshot('u');
    expect(warnings()).toEqual([expect.stringContaining('thread "t"'), expect.stringContaining('thread "u"')]);

    // Once it can be read again, readers that got the old snapshot are told to read it again, and
    // a read that fails again says so again.
    const listener = vi.fn();
    history.subscribe(listener);
    reads = true;
    expect(history.getSnapshot('t').map((r) => r.id)).toEqual(['a']);
    await Promise.resolve();
    expect(listener).toHaveBeenCalledTimes(1);
    reads = false;
    history.record(answer('b'));
    expect(warnings()).toHaveLength(3);
  });

  it('given an answer still sending when storage can be read again, should show it as sending next to what was stored', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const data = new Map([[`${KEY}:t`, JSON.stringify([stored('old', 1)])]]);
    let reads = false;
    const history = createInterruptHistory({
      storageKey: KEY,
      now: () => 2,
      persistence: {
        get: (key) => {
          if (!reads) throw new Error('busy');
          return data.get(key) ?? null;
        },
        set: (key, value) => void data.set(key, value),
      },
    });
    history.record({ ...answer('a'), status: 'submitting' });
    reads = true;
    expect(history.getSnapshot('t').map((r) => [r.id, r.status])).toEqual([
      ['old', 'resolved'],
      ['a', 'submitting'],
    ]);
  });
  it('given a store whose reads start working in the middle of settling an answer, should settle that answer and leave what was stored as it was', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // A store still opening: its first reads fail, then it works. Whichever read is the first that
    // works, the answer must end up resolved and the stored records untouched.
    for (let failing = 1; failing <= 8; failing++) {
      const old = [stored('old-0', 1), stored('old-1', 2)];
      const data = new Map([[`${KEY}:t`, JSON.stringify(old)]]);
      let reads = 0;
      const history = createInterruptHistory({
        storageKey: KEY,
        now: () => 3,
        persistence: {
          get: (key) => {
            if (++reads <= failing) throw new Error('still opening');
            return data.get(key) ?? null;
          },
          set: (key, value) => void data.set(key, value),
        },
      });
      history.record({ ...answer('a'), status: 'submitting' });
      history.update('t', 'a', { status: 'resolved' });
      const shown = history.getSnapshot('t').map((r) => [r.id, r.status]);
      expect({ failing, shown }).toEqual({ failing, shown: expect.arrayContaining([['a', 'resolved']]) });
      for (const record of history.getSnapshot('t').filter((r) => r.id !== 'a')) {
        expect({ failing, record }).toEqual({ failing, record: old.find((r) => r.id === record.id) });
      }
    }
  });
});

describe('always-allowed tools on a store whose reads fail for a while', () => {
  it('given a read of the allowed tools that failed once, when another tool is allowed after reads work again, should keep the tools stored before', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const data = new Map([[TOOLS_KEY, JSON.stringify(['deploy'])]]);
    let reads = false;
    const history = createInterruptHistory({
      storageKey: KEY,
      persistence: {
        get: (key) => {
          if (!reads) throw new Error('still opening');
          return data.get(key) ?? null;
        },
        set: (key, value) => void data.set(key, value),
      },
    });
    history.allowedTools('t');
    reads = true;
    history.allowTool('t', 'delete_files');
    expect(history.allowedTools('t')).toEqual(['deploy', 'delete_files']);
    expect(JSON.parse(data.get(TOOLS_KEY)!)).toEqual(['deploy', 'delete_files']);
  });
});

describe('always-allowed tools stored as garbage', () => {
  /** What a stored list of tools may hold: broken text, any JSON, or a list mixing names and other values. */
  const text = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.json({ maxDepth: 2 }),
    fc
      .array(fc.oneof(fc.constantFrom('deploy', 'delete_files', ''), fc.jsonValue({ maxDepth: 1 })), { maxLength: 5 })
      .map((list) => JSON.stringify(list)),
  );

  it('given any text stored as the allowed tools, should keep the tool names in it and warn once, naming the thread, when anything else is there', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fc.assert(
      fc.property(text, (raw) => {
        warn.mockClear();
        const history = createInterruptHistory({
          storageKey: KEY,
          persistence: { get: (key) => (key === TOOLS_KEY ? raw : null), set: () => {} },
        });
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          parsed = undefined;
        }
        const list = Array.isArray(parsed) ? parsed : [];
        const names = list.filter((tool): tool is string => typeof tool === 'string' && tool !== '');
        const clean = raw === '' || (Array.isArray(parsed) && names.length === list.length);

        expect(history.allowedTools('t')).toEqual([...new Set(names)]);
        history.allowedTools('t');
        expect(warnings()).toEqual(clean ? [] : [expect.stringContaining('thread "t"')]);
      }),
    );
  });
});

describe('an async store that finishes its writes out of order', () => {
  it('given answers saved one after another, should end up holding the last, whatever order the store finishes in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(20), { minLength: 2, maxLength: 6 }), async (delays) => {
        const stored = new Map<string, string>();
        let writes = 0;
        // Each write takes its own time: a later one may finish first.
        const persistence: InterruptHistoryPersistence = {
          get: (key) => stored.get(key) ?? null,
          set: (key, value) => {
            const delay = delays[writes++ % delays.length]!;
            return new Promise<void>((resolve) => setTimeout(() => (stored.set(key, value), resolve()), delay));
          },
        };
        const history = createInterruptHistory({ persistence });
        delays.forEach((_, n) =>
          history.record({
            threadId: 't',
            id: `i-${n}`,
            reason: 'acme:ask',
            interrupt: unwrapInterrupt({ id: `i-${n}`, reason: 'acme:ask' }),
            status: 'resolved',
            result: n,
            anchor: null,
          }),
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        const reloaded = createInterruptHistory({ persistence });
        expect(reloaded.getSnapshot('t').map((r) => r.id)).toEqual(delays.map((_, n) => `i-${n}`));
      }),
      { numRuns: 15 },
    );
  });
});
