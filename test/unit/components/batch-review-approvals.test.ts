// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pendingApprovals } from '../../../components/host/batch-review';
import { unwrapInterrupt } from '../../../src/unwrap';

const approval = (id: string, extra: Record<string, unknown> = {}) =>
  unwrapInterrupt({ id, reason: 'aidev:tool_approval', metadata: { toolName: 'deploy', args: { version: id }, ...extra } });
const people = (viewerMayAnswer: boolean) => ({ 'copilotkit-interrupts:people': { viewerMayAnswer, waitingFor: [{ role: 'on-call' }] } });

describe('Approve all and Reject all', () => {
  it('given approvals some of which the runner gave to other people, should answer only those this viewer may answer', () => {
    const set = [approval('a'), approval('b', people(false)), approval('c', people(true)), approval('d')];
    expect(pendingApprovals(set, []).map((interrupt) => interrupt.id)).toEqual(['a', 'c', 'd']);
  });

  it('given approvals answered already or decided by a ticket, should leave them out', () => {
    const set = [approval('a'), approval('b', { ticket: { id: 'T-1' } }), approval('c')];
    const answered = [
      { threadId: 't', id: 'c', reason: 'aidev:tool_approval', interrupt: set[2]!, status: 'resolved' as const, time: 0, anchor: null },
    ];
    expect(pendingApprovals(set, answered).map((interrupt) => interrupt.id)).toEqual(['a']);
  });
});
