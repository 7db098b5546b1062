import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { approvalInterrupt } from '../fixtures/interrupts';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { renderChat, sendMessage } from './harness';
import { zhCN } from '../../src/i18n/locales/zh-CN';

// Batch review through the real provider, CopilotChat and the built-in approval card: one set of
// several direct-mode approvals, answered together, reaches the agent as one resume.
const approval = (n: number, metadata: Record<string, unknown> = {}) => ({
  id: `approve-${n}`,
  reason: 'aidev:tool_approval',
  toolCallId: `call-${n}`,
  message: `Run step ${n}?`,
  metadata: { toolName: 'run_step', arguments: { step: n }, ...metadata },
});

function chatRaising(interrupts: readonly unknown[], config: Record<string, unknown> = {}) {
  const agent = new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(...interrupts))]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'Understood.'), runFinished(input)],
  );
  renderChat({ agent, config: { resolveDelayMs: 0, defaults: { 'aidev:tool_approval': ToolApprovalCard }, ...config } });
  return agent;
}

describe('batch review of several approvals', () => {
  it('given three approvals, when the user presses Approve all, should send every approval in one resume', async () => {
    const agent = chatRaising([approval(1), approval(2), approval(3)]);
    await sendMessage('Plan it');
    const bar = await screen.findByRole('group', { name: '3 approvals wait for you' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve all (3)' }));

    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(agent.runs[1].resume).toEqual(
      [1, 2, 3].map((n) => ({ interruptId: `approve-${n}`, status: 'resolved', payload: { approved: true } })),
    );
  });

  it('given one card rejected on its own first, should keep that answer and approve only the others', async () => {
    const agent = chatRaising([approval(1), approval(2), approval(3)]);
    await sendMessage('Plan it');
    const cards = await screen.findAllByTestId('approval-card');
    fireEvent.change(within(cards[1]).getByLabelText('Reason (optional)'), { target: { value: 'Not this one' } });
    fireEvent.click(within(cards[1]).getByTestId('approval-reject'));
    const bar = await screen.findByRole('group', { name: '2 approvals wait for you' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve all (2)' }));

    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: 'approve-1', status: 'resolved', payload: { approved: true } },
      { interruptId: 'approve-2', status: 'resolved', payload: { approved: false, reason: 'Not this one' } },
      { interruptId: 'approve-3', status: 'resolved', payload: { approved: true } },
    ]);
  });

  it('when the user rejects all with one reason by keyboard alone, should send that reason with each and focus the outcome', async () => {
    const user = userEvent.setup();
    const agent = chatRaising([approval(1), approval(2)], { resolveDelayMs: 200 });
    await sendMessage('Plan it');
    const bar = await screen.findByRole('group', { name: '2 approvals wait for you' });
    within(bar).getByLabelText('Reason for rejecting all (optional)').focus();
    await user.keyboard('Out of budget');
    await user.tab();
    await user.tab();
    expect(document.activeElement).toBe(within(bar).getByRole('button', { name: 'Reject all (2)' }));
    await user.keyboard('{Enter}');

    // Focus lands on what happened, not on <body>.
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Rejected 2 requests.'));
    expect(screen.getByTestId('batch-review-done')).toHaveAttribute('role', 'status');
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual(
      [1, 2].map((n) => ({ interruptId: `approve-${n}`, status: 'resolved', payload: { approved: false, reason: 'Out of budget' } })),
    );
  });

  it('should offer Approve all only for approvals that can be approved', async () => {
    const agent = chatRaising([approval(1), approval(2), approval(3, { allowApprove: false })]);
    await sendMessage('Plan it');
    const bar = await screen.findByRole('group', { name: '3 approvals wait for you' });
    expect(within(bar).getByRole('button', { name: 'Reject all (3)' })).toBeInTheDocument();
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve all (2)' }));
    // The one left waits for its own answer; nothing is sent before it.
    const left = await screen.findByText('Run step 3?');
    expect(agent.runs).toHaveLength(1);
    fireEvent.click(within(left.closest('[data-testid="approval-card"]') as HTMLElement).getByTestId('approval-reject'));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    expect(agent.runs[1].resume).toHaveLength(3);
  });

  it('given a single approval or a ticket approval beside one, should show no batch bar', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom([approval(1)], [approval(1), approvalInterrupt]), async (set) => {
        chatRaising(set);
        await sendMessage('Plan it');
        await screen.findAllByText('Run step 1?');
        expect(screen.queryByTestId('batch-review')).not.toBeInTheDocument();
        cleanup();
      }),
      { numRuns: 2 },
    );
  });

  it('should speak the cards language', async () => {
    chatRaising([approval(1), approval(2)], { ...zhCN });
    await sendMessage('Plan it');
    const bar = await screen.findByRole('group', { name: '2 个审批等待你处理' });
    expect(within(bar).getByRole('button', { name: '全部批准（2）' })).toBeInTheDocument();
  });
});
