import { InterruptResumeOperation, type Interrupt } from '../../src/protocol';

/**
 * The page's side of the demo approval system. ToolApprovalCard calls `onInterruptResume` with
 * `approval_refresh` / `approval_cancel`; this posts to `/api/approvals/:sn/refresh|cancel` and
 * returns `{ticket}`, the ticket as it is now. A terminal status makes the card resolve the
 * interrupt with `{metadata: {ticket}}`, which resumes the agent.
 */
export async function approvalOperation(
  baseUrl: string,
  payload: unknown,
  interrupt: Interrupt | undefined,
): Promise<{ ticket: unknown } | undefined> {
  const operation = (payload as { operation?: unknown } | null)?.operation;
  const action =
    operation === InterruptResumeOperation.ApprovalRefresh
      ? 'refresh'
      : operation === InterruptResumeOperation.ApprovalCancel
        ? 'cancel'
        : undefined;
  if (!action) return undefined; // answers (resume records) need nothing from the demo server
  const sn = (interrupt?.metadata as { ticket?: { sn?: unknown } } | undefined)?.ticket?.sn;
  if (typeof sn !== 'string') throw new Error('This approval has no ticket number.');
  const response = await fetch(`${baseUrl}/api/approvals/${encodeURIComponent(sn)}/${action}`, { method: 'POST' });
  if (!response.ok) {
    // The demo server says why (someone not on call, say); the card shows it.
    const said = ((await response.json().catch(() => undefined)) as { error?: unknown } | undefined)?.error;
    throw new Error(typeof said === 'string' ? said : `The approval system answered ${response.status}.`);
  }
  return (await response.json()) as { ticket: unknown };
}
