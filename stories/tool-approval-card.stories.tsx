import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { ToolApprovalCard } from '../components/tool-approval-card/tool-approval-card';
import { CardHarness } from './support/card-harness';
import {
  approvalInterrupt,
  deployApprovalInterrupt,
  directApprovalInterrupt,
  fixedClock,
  langGraphReviewInterrupt,
  LONG_TEXT,
  LONG_WORD,
  PAST,
  ticket,
} from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';
import { readableDateTime } from '../src/i18n/date-time';
import { InterruptReason } from '../src/protocol';
import { expectAnswerShownWhole, ISO_DATE_TIME, LONG_ANSWER } from './support/answer-checks';

const meta = {
  title: 'Cards/ToolApprovalCard',
  component: CardHarness,
  args: {
    card: ToolApprovalCard,
    interrupt: approvalInterrupt(),
    extra: { now: fixedClock },
    onResolve: fn(),
    onCancel: fn(),
    onInterruptResume: fn(async (): Promise<unknown> => undefined),
  },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

export const TicketPending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('approval-card');
    await expect(card).toHaveTextContent(ticket.title);
    await expect(canvas.getByTestId('approval-status')).toHaveTextContent('Pending approval');
    await expect(card).toHaveTextContent(ticket.sn);
    // The submit time in the reader's locale, not as the ticket system wrote it.
    await expect(card).toHaveTextContent(readableDateTime(ticket.submit_time, 'en')!);
    await expect(card.textContent).not.toMatch(ISO_DATE_TIME);
    await expect(card).toHaveTextContent('Zhang San, Li Si');
    const link = canvas.getByRole('link', { name: 'View ticket' });
    await expect(link).toHaveAttribute('href', ticket.url);
    await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    await expect(canvas.getByTestId('approval-cancel')).toBeEnabled();
    await expect(canvas.getByTestId('approval-refresh')).toBeEnabled();
  },
};

export const CancelApproval: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-cancel'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Cancelled');
    await expect(args.onInterruptResume).toHaveBeenCalledWith(
      { operation: 'approval_cancel', payload: { interrupt_id: 'interrupt_ai_dev_tool_approval' } },
      expect.objectContaining({ id: 'interrupt_ai_dev_tool_approval', reason: 'aidev:tool_approval' }),
    );
    await expect(args.onResolve).toHaveBeenCalledWith({ metadata: { ticket: { ...ticket, status: 'cancelled' } } });
  },
};

export const CancelInProgress: Story = {
  args: { onInterruptResume: fn((): Promise<unknown> => new Promise(() => {})) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-cancel'));
    await waitFor(() => expect(canvas.getByTestId('approval-cancel')).toHaveTextContent('Cancelling…'));
    await expect(canvas.getByTestId('approval-cancel')).toBeDisabled();
    await expect(canvas.getByTestId('approval-refresh')).toBeDisabled();
  },
};

export const RefreshToApproved: Story = {
  args: { onInterruptResume: fn(async (): Promise<unknown> => ({ ticket: { ...ticket, status: 'approved' } })) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-refresh'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(resolved).not.toHaveTextContent('Zhang San');
    await expect(args.onInterruptResume).toHaveBeenCalledWith(
      { operation: 'approval_refresh', payload: { interrupt_id: 'interrupt_ai_dev_tool_approval' } },
      expect.objectContaining({ id: 'interrupt_ai_dev_tool_approval' }),
    );
    await expect(args.onResolve).toHaveBeenCalledWith({ metadata: { ticket: { ...ticket, status: 'approved' } } });
  },
};

export const RefreshCooldown: Story = {
  args: { onInterruptResume: fn(async (): Promise<unknown> => ({ ...ticket })) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-refresh'));
    await waitFor(() => expect(canvas.getByTestId('approval-refresh')).toBeDisabled());
    await expect(canvas.getByTestId('approval-card')).toBeInTheDocument();
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const TerminalTicket: Story = {
  args: { interrupt: approvalInterrupt({ status: 'rejected' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const cancel = await canvas.findByTestId('approval-cancel');
    await expect(cancel).toBeDisabled();
    await expect(cancel).toHaveAccessibleDescription('The ticket is Rejected; it can no longer be cancelled.');
    await expect(canvas.getByTestId('approval-status')).toHaveTextContent('Rejected');
    await expect(canvas.queryByText('Zhang San, Li Si')).toBeNull();
  },
};

export const OperationFails: Story = {
  args: { onInterruptResume: fn(async (): Promise<unknown> => Promise.reject(new Error('ticket service unavailable'))) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-cancel'));
    await expect(await canvas.findByTestId('approval-operation-error')).toHaveTextContent('That did not work: ticket service unavailable');
    await waitFor(() => expect(canvas.getByTestId('approval-cancel')).toBeEnabled());
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const UnsafeTicketUrl: Story = {
  args: { interrupt: approvalInterrupt({ url: 'javascript:alert(document.cookie)' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await canvas.findByTestId('approval-card');
    await expect(canvas.queryByRole('link')).toBeNull();
    await expect(canvasElement.querySelector('a')).toBeNull();
  },
};

export const DirectApprove: Story = {
  args: { interrupt: directApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('approval-card');
    await expect(card).toHaveTextContent('The agent wants to delete 3 files.');
    await expect(card).toHaveTextContent('delete_files');
    // Every argument is on the card without a click: the user sees what they approve.
    const args_ = within(canvas.getByTestId('approval-args'));
    await expect(args_.getByText('paths').closest('.cki-fields__row')).toHaveTextContent('"a.txt", "b.txt", "c.txt"');
    await expect(args_.getByText('force').closest('.cki-fields__row')).toHaveTextContent('true');
    await expect(args_.getByText('force')).toBeVisible();
    await userEvent.type(canvas.getByLabelText('Reason (optional)'), 'Looks safe');
    await userEvent.click(canvas.getByTestId('approval-approve'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(resolved).toHaveTextContent('Looks safe');
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true, reason: 'Looks safe' });
  },
};

export const DirectReject: Story = {
  args: { interrupt: directApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-reject'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Rejected');
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: false });
  },
};

export const DirectRejectWithReason: Story = {
  args: { interrupt: directApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Reason (optional)'), 'Keep b.txt');
    await userEvent.click(canvas.getByTestId('approval-reject'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Rejected');
    await expect(resolved).toHaveTextContent('Keep b.txt');
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: false, reason: 'Keep b.txt' });
  },
};

export const DirectDismiss: Story = {
  args: { interrupt: directApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-dismiss'));
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Cancelled');
    await expect(args.onCancel).toHaveBeenCalledTimes(1);
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const EditJson: Story = {
  args: { interrupt: directApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-edit-open'));
    const editor = canvas.getByLabelText('Arguments (JSON)');
    await userEvent.clear(editor);
    await userEvent.type(editor, '[[1');
    await expect(await canvas.findByTestId('approval-edit-problem')).toHaveTextContent('These arguments cannot be sent');
    await expect(editor).toHaveAttribute('aria-invalid', 'true');
    await expect(canvas.getByTestId('approval-approve-edited')).toBeDisabled();
    await userEvent.clear(editor);
    await userEvent.type(editor, '{{"paths": [["a.txt"], "force": false}');
    await expect(canvas.queryByTestId('approval-edit-problem')).toBeNull();
    await userEvent.click(canvas.getByTestId('approval-approve-edited'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true, editedArgs: { paths: ['a.txt'], force: false } });
    // The transcript's card is compact: the diff is in its details.
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    const diff = await canvas.findByTestId('approval-edited-args');
    await expect(diff).toHaveTextContent('Edited arguments');
    await expect(diff).toHaveTextContent('paths: ["a.txt","b.txt","c.txt"] → ["a.txt"]');
    await expect(diff).toHaveTextContent('force: true → false');
  },
};

export const EditForm: Story = {
  args: { interrupt: deployApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-edit-open'));
    await expect(canvas.getByLabelText(/Service/)).toHaveValue('api');
    const replicas = canvas.getByLabelText(/Replicas/);
    await expect(replicas).toHaveValue(2);
    await userEvent.clear(replicas);
    await expect(canvas.getByTestId('approval-approve-edited')).toBeDisabled();
    await userEvent.type(replicas, '5');
    await userEvent.click(canvas.getByLabelText('Dry run'));
    await userEvent.click(canvas.getByTestId('approval-approve-edited'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true, editedArgs: { service: 'api', replicas: 5, dryRun: true } });
    // The transcript's card is compact: the diff is in its details.
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    await expect(await canvas.findByTestId('approval-edited-args')).toHaveTextContent('replicas: 2 → 5');
  },
};

/** Edit mode: the arguments in the form; the reason that goes with any answer stays on screen. */
export const EditMode: Story = {
  args: { interrupt: deployApprovalInterrupt },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-edit-open'));
    await expect(canvas.getByLabelText(/Replicas/)).toHaveValue(2);
    await expect(canvas.getByLabelText('Reason (optional)')).toBeVisible();
    await expect(canvas.getByTestId('approval-card')).not.toHaveTextContent(/Reason for rejecting/);
  },
};

/** Edit mode where the reason goes with Reject only: no "Reason for rejecting" field while editing. */
export const EditModeJsonNoReason: Story = {
  args: { interrupt: langGraphReviewInterrupt({ allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByLabelText('Reason for rejecting (optional)')).toBeVisible();
    await userEvent.click(canvas.getByTestId('approval-edit-open'));
    await expect(canvas.getByLabelText('Arguments (JSON)')).toBeVisible();
    await expect(canvas.queryByLabelText('Reason for rejecting (optional)')).toBeNull();
  },
};

/**
 * Many arguments, some long: each one is on the card by name without a click; a long value shows
 * its first words and folds the rest inside itself; a date reads as a date.
 */
export const ManyLongArgs: Story = {
  args: {
    interrupt: {
      id: 'interrupt_many_args',
      reason: InterruptReason.AIDevToolApproval,
      message: 'The agent wants to deploy a service.',
      metadata: {
        toolName: 'deploy_service',
        arguments: {
          service: 'payments-api',
          replicas: 2,
          region: 'eu-west-1',
          dryRun: false,
          startAt: '2026-12-05T14:00:00.000Z',
          notes: LONG_TEXT,
          env: { LOG_LEVEL: 'debug', FEATURE_FLAGS: ['a', 'b', 'c'], TIMEOUT_MS: 30000, RETRIES: 5, CACHE: 'redis' },
          image: `registry.example.com/${LONG_WORD}`,
        },
      },
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const list = within(await canvas.findByTestId('approval-args'));
    for (const name of ['service', 'replicas', 'region', 'dryRun', 'startAt', 'notes', 'env', 'image']) {
      await expect(list.getByText(name)).toBeVisible();
    }
    const row = (name: string) => list.getByText(name).closest('.cki-fields__row') as HTMLElement;
    await expect(row('replicas')).toHaveTextContent('2');
    await expect(row('service')).toHaveTextContent('payments-api');
    await expect(row('startAt')).toHaveTextContent(readableDateTime('2026-12-05T14:00:00.000Z', 'en')!);
    // A long value: its start in view, the rest folded inside it (not the whole list).
    const notes = row('notes').querySelector('details')!;
    await expect(notes).not.toHaveAttribute('open');
    await expect(row('notes')).toHaveTextContent(LONG_TEXT.slice(0, 40));
    await userEvent.click(within(row('notes')).getByText(/…$/));
    await expect(notes).toHaveAttribute('open');
    await expect(within(row('notes')).getByRole('region', { name: 'notes' })).toHaveTextContent(LONG_TEXT);
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

/** Rejected with a long reason: the answered card shows the reason whole, wrapped. */
export const RejectedLongReason: Story = {
  args: { interrupt: directApprovalInterrupt, status: 'resolved', result: { approved: false, reason: LONG_ANSWER } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Rejected');
    await expectAnswerShownWhole(within(resolved).getByTestId('read-only-answer'), LONG_ANSWER);
  },
};

/** Approve by keyboard: focus moves to the answered card's summary, not to the page. */
export const KeyboardApprove: Story = {
  args: { interrupt: deployApprovalInterrupt },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    (await canvas.findByTestId('approval-approve')).focus();
    await userEvent.keyboard('{Enter}');
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(resolved.querySelector('.cki-summary')).toHaveFocus();
    await expectAnswerShownWhole(within(resolved).getByTestId('read-only-answer'), 'deploy_service');
  },
};

export const EditBack: Story = {
  args: { interrupt: deployApprovalInterrupt },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-edit-open'));
    await userEvent.click(canvas.getByTestId('approval-edit-back'));
    await userEvent.click(canvas.getByTestId('approval-approve'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true });
  },
};

export const ResolvedEdited: Story = {
  args: {
    interrupt: deployApprovalInterrupt,
    status: 'resolved',
    result: { approved: true, editedArgs: { service: 'api', replicas: 3, region: 'eu' } },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    // The transcript's card is compact: the diff is in its details.
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    const diff = await canvas.findByTestId('approval-edited-args');
    await expect(within(canvasElement).getByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(diff).toHaveTextContent('replicas: 2 → 3');
    await expect(diff).toHaveTextContent('dryRun: false');
    await expect(diff).toHaveTextContent('region: "eu"');
    await expect(canvas.getByRole('listitem', { name: 'dryRun removed (was false)' })).toBeVisible();
  },
};

export const NotEditable: Story = {
  args: { interrupt: { ...directApprovalInterrupt, metadata: { ...directApprovalInterrupt.metadata, allowEdit: false } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-approve')).toBeVisible();
    await expect(canvas.queryByTestId('approval-edit-open')).toBeNull();
  },
};

/** A LangGraph review request that allows accept and ignore only: Approve and Dismiss, nothing else. */
export const ReviewConfigAcceptIgnore: Story = {
  args: { interrupt: langGraphReviewInterrupt({ allow_accept: true, allow_edit: false, allow_respond: false, allow_ignore: true }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('approval-card');
    await expect(card).toHaveTextContent('Send the deploy email to the ops list?');
    await expect(card).toHaveTextContent('send_email');
    await expect(canvas.getByTestId('approval-dismiss')).toBeVisible();
    await expect(canvas.queryByTestId('approval-edit-open')).toBeNull();
    await expect(canvas.queryByTestId('approval-reject')).toBeNull();
    await expect(canvas.queryByRole('textbox')).toBeNull();
    await userEvent.click(canvas.getByTestId('approval-approve'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true });
  },
};

/** A LangGraph review request that takes a response only: Reject with its reason, nothing else. */
export const ReviewConfigRespondOnly: Story = {
  args: { interrupt: langGraphReviewInterrupt({ allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Reason for rejecting (optional)'), 'Wait for QA');
    await expect(canvas.queryByTestId('approval-approve')).toBeNull();
    await expect(canvas.queryByTestId('approval-dismiss')).toBeNull();
    await userEvent.click(canvas.getByTestId('approval-reject'));
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(resolved).toHaveTextContent('Wait for QA');
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: false, reason: 'Wait for QA' });
  },
};

/** Every answer allowed: the reason goes with Reject only, since the graph's accept carries no text. */
export const ReviewConfigAll: Story = {
  args: { interrupt: langGraphReviewInterrupt({ allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.type(await canvas.findByLabelText('Reason for rejecting (optional)'), 'fine');
    await expect(canvas.getByTestId('approval-edit-open')).toBeVisible();
    await expect(canvas.getByTestId('approval-dismiss')).toBeVisible();
    await userEvent.click(canvas.getByTestId('approval-approve'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true });
    await expect(await canvas.findByTestId('approval-card-resolved')).not.toHaveTextContent('fine');
  },
};

export const ReviewConfigZhCN: Story = {
  args: { ...zhCN, interrupt: langGraphReviewInterrupt({ allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByLabelText('拒绝理由（可选）')).toBeVisible();
  },
};

export const EditZhCN: Story = {
  args: { ...zhCN, interrupt: directApprovalInterrupt },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-edit-open'));
    await expect(canvas.getByTestId('approval-approve-edited')).toHaveTextContent('按修改后的参数批准');
    await expect(canvas.getByLabelText('参数（JSON）')).toBeVisible();
  },
};

export const AlwaysAllow: Story = {
  args: { interrupt: directApprovalInterrupt, allowAlways: ['delete_files'], onAllowTool: fn() },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByLabelText('Always allow delete_files in this conversation'));
    await userEvent.click(canvas.getByTestId('approval-approve'));
    await expect(args.onResolve).toHaveBeenCalledWith({ approved: true });
    await expect(args.onAllowTool).toHaveBeenCalledWith('delete_files');
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Approved');
  },
};

export const AlwaysAllowNotOffered: Story = {
  args: { interrupt: directApprovalInterrupt, allowAlways: ['deploy_service'] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-approve')).toBeVisible();
    await expect(canvas.queryByTestId('approval-always-allow')).toBeNull();
  },
};

export const AutoApproved: Story = {
  args: { interrupt: directApprovalInterrupt, allowAlways: true, allowedTools: ['delete_files'] },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Auto-approved');
    await expect(canvas.queryByTestId('approval-approve')).toBeNull();
    await waitFor(() => expect(args.onResolve).toHaveBeenCalledWith({ approved: true, autoApproved: true }));
    await expect(canvas.getByTestId('approval-auto-approved')).toHaveTextContent('delete_files is always allowed in this conversation.');
    await userEvent.click(canvas.getByTestId('approval-revoke'));
    await expect(canvas.getByTestId('approval-auto-approved')).toHaveTextContent('delete_files will ask for approval again.');
    await expect(canvas.queryByTestId('approval-revoke')).toBeNull();
    await expect(args.onResolve).toHaveBeenCalledTimes(1);
  },
};

export const AutoApprovedZhCN: Story = {
  args: { ...zhCN, interrupt: directApprovalInterrupt, allowAlways: true, allowedTools: ['delete_files'] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('已自动批准');
    await expect(canvas.getByTestId('approval-revoke')).toHaveTextContent('delete_files 重新需要审批');
  },
};

export const Submitting: Story = {
  args: { interrupt: directApprovalInterrupt, settle: 'never' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-approve'));
    await expect(await canvas.findByTestId('approval-card-resolved')).toHaveTextContent('Sending…');
  },
};

export const ResolvedTicket: Story = {
  args: { status: 'resolved', result: { metadata: { ticket: { ...ticket, status: 'approved' } } } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(within(resolved).getByTestId('approval-status')).toHaveTextContent('Approved');
    await expect(within(resolved).getByTestId('read-only-answer')).toHaveTextContent(ticket.sn);
    const toggle = canvas.getByRole('button', { name: 'Details' });
    await expect(canvas.getAllByRole('button')).toEqual([toggle]);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  },
};

/** The resolved ticket with its details opened: number, submit time and the link to the ticket. */
export const ResolvedTicketDetailsOpen: Story = {
  args: ResolvedTicket.args,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    const details = canvas.getByTestId('read-only-details');
    await expect(details).toHaveTextContent(ticket.sn);
    await expect(within(details).getByRole('link')).toBeInTheDocument();
  },
};

export const ResolvedDirect: Story = {
  args: { interrupt: directApprovalInterrupt, status: 'resolved', result: { approved: false, reason: 'Too risky' } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const resolved = await canvas.findByTestId('approval-card-resolved');
    await expect(resolved).toHaveTextContent('Rejected');
    await expect(resolved).toHaveTextContent('Too risky');
  },
};

/** The direct decision with its details opened: the tool, its arguments and the reason. */
export const ResolvedDirectDetailsOpen: Story = {
  args: ResolvedDirect.args,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    const details = canvas.getByTestId('read-only-details');
    await expect(details).toHaveTextContent('Tool');
    await expect(details).toHaveTextContent('Too risky');
  },
};

export const Cancelled: Story = {
  args: { interrupt: directApprovalInterrupt, status: 'cancelled' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Cancelled');
    await expect(canvas.queryByTestId('approval-approve')).toBeNull();
  },
};

/** Steer-away: the user chatted on instead of deciding; the agent got `cancelled`. */
export const Dismissed: Story = {
  args: { interrupt: directApprovalInterrupt, status: 'dismissed' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Dismissed');
    await expect(canvas.queryByTestId('approval-approve')).toBeNull();
  },
};

export const TicketDismissed: Story = {
  args: { status: 'cancelled' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('approval-card-resolved');
    await expect(card).toHaveTextContent(ticket.title);
    await expect(card).toHaveTextContent('Cancelled');
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
  },
};

export const Expired: Story = {
  args: { interrupt: approvalInterrupt({}, { expiresAt: PAST }) },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-card-expired')).toHaveTextContent('Expired');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
    await expect(args.onInterruptResume).not.toHaveBeenCalled();
  },
};

export const ErrorState: Story = {
  name: 'Error',
  args: { interrupt: directApprovalInterrupt, failResume: true },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('approval-approve'));
    await expect(await canvas.findByTestId('interrupt-error')).toHaveTextContent('The agent could not be reached.');
    await userEvent.click(canvas.getByTestId('interrupt-retry'));
    await waitFor(() => expect(canvas.queryByTestId('interrupt-error')).toBeNull());
    await expect(args.onResolve).toHaveBeenCalledTimes(2);
  },
};

export const ZhCN: Story = {
  args: { ...zhCN, interrupt: approvalInterrupt({ title: '算法方案评审单', approvers: ['张三', '李四'] }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('待审批');
    await expect(canvas.getByTestId('approval-cancel')).toHaveTextContent('取消审批');
    await expect(canvas.getByTestId('approval-refresh')).toHaveTextContent('刷新');
    await expect(canvas.getByRole('link')).toHaveTextContent('查看审批单');
  },
};

export const Dark: Story = {
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-card')).toBeVisible();
  },
};

export const DarkDirect: Story = {
  args: { interrupt: directApprovalInterrupt },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-approve')).toBeVisible();
  },
};

export const VeryLongTexts: Story = {
  args: {
    interrupt: approvalInterrupt({
      title: LONG_TEXT,
      sn: LONG_WORD,
      approvers: Array.from({ length: 12 }, (_, i) => `Approver number ${i + 1}`),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-card')).toHaveTextContent(LONG_TEXT);
  },
};

export const BadPayload: Story = {
  args: { interrupt: approvalInterrupt({ title: 42, status: null }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('fallback-interrupt-card')).toHaveTextContent('metadata.ticket');
    await expect(canvas.queryByTestId('approval-card')).toBeNull();
  },
};

export const DarkTicketStatuses: Story = {
  args: {
    interrupt: approvalInterrupt({ status: 'rejected' }),
    onInterruptResume: fn(async (): Promise<unknown> => Promise.reject(new Error('ticket service unavailable'))),
  },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Rejected');
    await userEvent.click(canvas.getByTestId('approval-refresh'));
    await expect(await canvas.findByTestId('approval-operation-error')).toBeVisible();
  },
};

export const DarkApproved: Story = {
  args: { status: 'resolved', result: { metadata: { ticket: { ...ticket, status: 'approved' } } } },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('approval-status')).toHaveTextContent('Approved');
  },
};
