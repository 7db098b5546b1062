import { describe, expect, it, vi } from 'vitest';
import { createInterruptHistory, type InterruptHistoryPersistence } from '../../../src/history';
import { unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt, mastraScheduleInterrupt } from '../../fixtures/interrupts';

const approval = unwrapInterrupt(approvalInterrupt);
const schedule = unwrapInterrupt(mastraScheduleInterrupt);

function memoryStorage(): InterruptHistoryPersistence & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, get: (key) => data.get(key) ?? null, set: (key, value) => void data.set(key, value) };
}

const entry = (threadId: string, interrupt = approval, status: 'resolved' | 'submitting' = 'resolved') => ({
  threadId,
  id: interrupt.id,
  reason: interrupt.reason,
  interrupt,
  status,
  result: { approved: true },
  anchor: 'msg-1',
});

describe('createInterruptHistory', () => {
  it('records per thread, stamps the time, and keeps the snapshot stable until that thread changes', () => {
    const history = createInterruptHistory({ now: () => 1234 });
    const listener = vi.fn();
    history.subscribe(listener);
    const emptyB = history.getSnapshot('b');

    history.record(entry('a'));
    const snapshotA = history.getSnapshot('a');
    expect(snapshotA).toHaveLength(1);
    expect(snapshotA[0]).toMatchObject({ threadId: 'a', id: approval.id, time: 1234, anchor: 'msg-1' });
    expect(history.getSnapshot('a')).toBe(snapshotA);
    expect(history.getSnapshot('b')).toBe(emptyB);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('replaces a record with the same id and updates fields in place', () => {
    const history = createInterruptHistory();
    history.record(entry('a', approval, 'submitting'));
    history.record(entry('a', schedule));
    expect(history.update('a', approval.id, { status: 'error', error: 'down' })).toMatchObject({ status: 'error', error: 'down' });
    expect(history.getSnapshot('a').map((r) => [r.id, r.status])).toEqual([
      [approval.id, 'error'],
      [schedule.id, 'resolved'],
    ]);
    expect(history.update('a', 'missing', { status: 'resolved' })).toBeUndefined();
  });

  it('given a record read, then changed, or a record written in another tab, get should give the record as it is now', () => {
    const storage = memoryStorage();
    const history = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    history.record(entry('a', approval, 'submitting'));
    history.record(entry('a', schedule));
    expect(history.get('a', approval.id)?.status).toBe('submitting');
    history.update('a', approval.id, { status: 'error', error: 'down' });
    expect(history.get('a', approval.id)).toMatchObject({ status: 'error', error: 'down' });
    expect(history.get('a', schedule.id)?.status).toBe('resolved');
    expect(history.get('a', 'missing')).toBeUndefined();
    // Another tab's history on the same storage reads what this one wrote.
    expect(createInterruptHistory({ persistence: storage, storageKey: 'k' }).get('a', schedule.id)?.status).toBe('resolved');
  });

  it('persists terminal records per thread and restores them in a new instance', () => {
    const storage = memoryStorage();
    const first = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    first.record(entry('a'));
    first.record(entry('a', schedule, 'submitting'));
    first.record(entry('b', schedule));
    expect([...storage.data.keys()].sort()).toEqual(['k:a', 'k:b']);

    const second = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    // The in-flight record is not stored: after a reload nobody knows how its run ended.
    expect(second.getSnapshot('a').map((r) => r.id)).toEqual([approval.id]);
    expect(second.getSnapshot('b').map((r) => r.id)).toEqual([schedule.id]);
    expect(second.getSnapshot('c')).toEqual([]);
  });

  it('keeps answers another tab stored on the same thread, and stores no raw input', () => {
    const storage = memoryStorage();
    const tabA = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    const tabB = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    expect(tabA.getSnapshot('t')).toEqual([]);
    expect(tabB.getSnapshot('t')).toEqual([]);
    tabA.record(entry('t', approval));
    tabB.record(entry('t', schedule));

    const reloaded = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    expect(reloaded.getSnapshot('t').map((r) => r.id)).toEqual([approval.id, schedule.id]);
    expect(storage.data.get('k:t')).not.toContain('"raw"');

    reloaded.clear('t');
    expect(createInterruptHistory({ persistence: storage, storageKey: 'k' }).getSnapshot('t')).toEqual([]);
  });

  it('works with localStorage and sessionStorage by name', () => {
    for (const persistence of ['localStorage', 'sessionStorage'] as const) {
      createInterruptHistory({ persistence, storageKey: persistence }).record(entry('t'));
      expect(createInterruptHistory({ persistence, storageKey: persistence }).getSnapshot('t')).toHaveLength(1);
      globalThis[persistence].clear();
    }
  });

  it('drops stored garbage with a console warning instead of trusting it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const storage = memoryStorage();
    storage.data.set('k:a', '{not json');
    storage.data.set('k:b', JSON.stringify([{ ...entry('b'), time: 1 }, { id: 'x' }, { ...entry('other'), time: 2 }]));
    const history = createInterruptHistory({ persistence: storage, storageKey: 'k' });
    expect(history.getSnapshot('a')).toEqual([]);
    expect(history.getSnapshot('b')).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });

  it('given records stored by an earlier version and dismissed ones, should read every settled status and drop unsettled ones', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const storage = memoryStorage();
    // Written before "dismissed" existed: a steer-away card was stored as `cancelled` then.
    const stored = (['resolved', 'cancelled', 'expired', 'dismissed', 'submitting', 'error', 'pending', 'Dismissed'] as const).map(
      (status, n) => ({ ...entry('a', { ...approval, id: `i-${n}` }), id: `i-${n}`, status, time: n }),
    );
    storage.data.set('h:a', JSON.stringify(stored));
    const history = createInterruptHistory({ persistence: storage, storageKey: 'h' });
    expect(history.getSnapshot('a').map((r) => r.status)).toEqual(['resolved', 'cancelled', 'expired', 'dismissed']);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('its status is not resolved, cancelled, dismissed or expired'));
    warn.mockRestore();
  });

  it('keeps working when storage throws', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const history = createInterruptHistory({
      persistence: {
        get: () => {
          throw new Error('denied');
        },
        set: () => {
          throw new Error('quota');
        },
      },
    });
    history.record(entry('a'));
    expect(history.getSnapshot('a')).toHaveLength(1);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('keeps the newest records when a thread exceeds maxPerThread', () => {
    const history = createInterruptHistory({ maxPerThread: 2 });
    for (const id of ['1', '2', '3']) history.record({ ...entry('a'), id });
    expect(history.getSnapshot('a').map((r) => r.id)).toEqual(['2', '3']);
  });

  it('clears one thread', () => {
    const history = createInterruptHistory();
    history.record(entry('a'));
    history.record(entry('b'));
    history.clear('a');
    expect(history.getSnapshot('a')).toEqual([]);
    expect(history.getSnapshot('b')).toHaveLength(1);
  });
});

describe('always-allowed tools', () => {
  const memory = () => {
    const store = new Map<string, string>();
    return {
      store,
      persistence: { get: (key: string) => store.get(key), set: (key: string, value: string) => void store.set(key, value) },
    };
  };

  it('given a tool allowed in one thread, should allow it there only, and keep the same array until it changes', () => {
    const history = createInterruptHistory();
    const before = history.allowedTools('a');
    history.allowTool('a', 'deploy');
    history.allowTool('a', 'deploy');
    expect(history.allowedTools('a')).toEqual(['deploy']);
    expect(history.allowedTools('a')).toBe(history.allowedTools('a'));
    expect(history.allowedTools('b')).toEqual([]);
    expect(before).toEqual([]);
    history.revokeTool('a', 'deploy');
    expect(history.allowedTools('a')).toEqual([]);
  });

  it('given persistence, should keep the grants with the thread across a reload, and notify readers', () => {
    const { store, persistence } = memory();
    const first = createInterruptHistory({ persistence });
    const listener = vi.fn();
    first.subscribe(listener);
    first.allowTool('t1', 'delete_files');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(createInterruptHistory({ persistence }).allowedTools('t1')).toEqual(['delete_files']);
    expect(createInterruptHistory({ persistence }).allowedTools('t2')).toEqual([]);
    // What is stored does not mix with the thread's records.
    expect(createInterruptHistory({ persistence }).getSnapshot('t1')).toEqual([]);
    expect([...store.keys()]).toEqual(['copilotkit-interrupts:history-allowed-tools:t1']);
  });

  it('given broken storage, should read no grants and still grant in memory, with a warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const history = createInterruptHistory({
      persistence: {
        get: () => {
          throw new Error('denied');
        },
        set: () => {
          throw new Error('full');
        },
      },
    });
    expect(history.allowedTools('t')).toEqual([]);
    history.allowTool('t', 'deploy');
    expect(history.allowedTools('t')).toEqual(['deploy']);
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it('given garbage in storage, should read only the tool names in it, with one warning naming the thread', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { store, persistence } = memory();
    store.set('copilotkit-interrupts:history-allowed-tools:t', JSON.stringify(['deploy', 42, '', 'deploy', { x: 1 }]));
    expect(createInterruptHistory({ persistence }).allowedTools('t')).toEqual(['deploy']);
    store.set('copilotkit-interrupts:history-allowed-tools:u', '{not json');
    expect(createInterruptHistory({ persistence }).allowedTools('u')).toEqual([]);
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      expect.stringContaining('thread "t"'),
      expect.stringContaining('thread "u"'),
    ]);
    warn.mockRestore();
  });
});
