import type { Meta, StoryObj } from '@storybook/react-vite';
import { CopilotKitProvider } from '@copilotkit/react-core/v2';
import { useState } from 'react';
import { expect, userEvent, within } from 'storybook/test';
import { PendingInterruptsList, type PendingInterruptsListProps } from '../components/pending-interrupts-list';
import type { PendingThread } from '../src/inbox';
import '../components/styles.css';

/** A fixed "now", so the durations and expiries read the same on every run. */
const NOW = Date.parse('2026-06-01T12:00:00Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();
const ahead = (minutes: number) => new Date(NOW + minutes * 60_000).toISOString();

const thread = (threadId: string, interrupts: Array<Partial<PendingThread['interrupts'][number]> & { minutes: number }>): PendingThread => {
  const rows = interrupts.map(({ minutes, ...rest }, i) => ({
    threadId,
    interruptId: `${threadId}-${i}`,
    reason: 'aidev:tool_approval',
    title: null,
    message: null,
    raisedAt: ago(minutes),
    expiresAt: null,
    waitingFor: minutes * 60_000,
    ...rest,
  }));
  return { threadId, interrupts: rows, oldestRaisedAt: rows[0]!.raisedAt };
};

const THREADS: PendingThread[] = [
  thread('release-v2', [
    { minutes: 190, title: 'git_tag' },
    { minutes: 190, title: 'send_email' },
    { minutes: 190, title: 'delete_branch' },
  ]),
  thread('deploy-prod', [{ minutes: 42, title: 'Deploy v2 to production', expiresAt: ahead(18) }]),
  thread('project-intake', [{ minutes: 12, reason: 'aidev:user_question', title: 'Which stack do you use?' }]),
  thread('sales-call', [{ minutes: 0.5, reason: 'mastra:tool_suspend', title: 'Intro with sales', expiresAt: ago(1) }]),
];

/** The list with the chat's current thread kept in state, as an app keeps it. */
function InboxPanel(props: Omit<PendingInterruptsListProps, 'onSelect'> & { initialThreadId?: string }) {
  const { initialThreadId, ...rest } = props;
  const [current, setCurrent] = useState(initialThreadId);
  return (
    <div style={{ maxWidth: 360 }}>
      <PendingInterruptsList {...rest} now={NOW} currentThreadId={current} onSelect={setCurrent} />
      <p data-testid="story-current-thread">Chat shows: {current ?? 'a new conversation'}</p>
    </div>
  );
}

const meta = {
  title: 'Inbox/PendingInterruptsList',
  component: InboxPanel,
  args: { threads: THREADS },
} satisfies Meta<typeof InboxPanel>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Four threads wait: three approvals in one, an approval that expires soon, questions, and an expired booking. */
export const Waiting: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const list = canvas.getByRole('region', { name: /^Waiting for you/ });
    await expect(within(list).getByRole('heading')).toHaveTextContent('Waiting for you (4)');
    const items = within(list).getAllByRole('button');
    await expect(items).toHaveLength(4);
    await expect(items[0]).toHaveTextContent('Approval (3)');
    await expect(items[0]).toHaveTextContent('git_tag · send_email · delete_branch');
    await expect(items[0]).toHaveTextContent('waiting 3 h');
    await expect(items[1]).toHaveTextContent('waiting 42 min, expires in 18 min');
    await expect(items[2]).toHaveTextContent('Questions');
    await expect(items[3]).toHaveTextContent('waiting less than a minute, expired');
    // A booking (no kind of its own) is a request that waits, not "Your answer".
    await expect(items[3]).toHaveTextContent(/^Request/);
  },
};

/** The user picks a thread (by keyboard): the app switches its chat, and the list marks it as open now. */
export const SwitchesTheChat: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const target = canvas.getAllByRole('button')[1]!;
    target.focus();
    await userEvent.keyboard('{Enter}');
    await expect(canvas.getByTestId('story-current-thread')).toHaveTextContent('deploy-prod');
    await expect(target).toHaveAttribute('aria-current', 'true');
    await expect(target).toHaveTextContent('open now');
  },
};

/** Nothing waits. */
export const Empty: Story = {
  args: { threads: [] },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Nothing waits for you.');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
  },
};

/** Before the first check answers. */
export const Loading: Story = {
  args: { threads: [], loading: true },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('status')).toHaveTextContent('Checking for conversations that wait…');
    await expect(canvas.getByRole('region')).toHaveAttribute('aria-busy', 'true');
  },
};

/** The last check failed: the message says why, the last good list stays, and "Check again" is offered. */
export const CheckFailed: Story = {
  args: {
    threads: THREADS.slice(0, 2),
    error: 'copilotkit-interrupts inbox: /api/inbox answered 503: cannot read the interrupts (the store is closed).',
    onRetry: () => undefined,
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('answered 503');
    await expect(canvas.getByRole('button', { name: 'Check again' })).toBeInTheDocument();
    await expect(canvas.getAllByTestId('pending-thread')).toHaveLength(2);
  },
};

/** The first check failed: only the message, no empty-state claim. */
export const Unreachable: Story = {
  args: { threads: [], error: 'copilotkit-interrupts inbox: cannot reach /api/inbox (Failed to fetch).' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('alert')).toHaveTextContent('cannot reach /api/inbox');
    await expect(canvas.queryByTestId('pending-interrupts-empty')).not.toBeInTheDocument();
  },
};

/** Themed through the CSS variables, on a dark ancestor. */
export const Dark: Story = {
  decorators: [
    (Story) => (
      <div className="cki-dark" style={{ background: '#0d1117', color: '#e6edf3', padding: 16 }}>
        <Story />
      </div>
    ),
  ],
  play: async ({ canvasElement }) => {
    await expect(within(canvasElement).getAllByTestId('pending-thread')).toHaveLength(4);
  },
};

/**
 * "Answer here" on a thread whose cards cannot be read (no runtime answers at this URL): the row
 * says why (`role="alert"`), with "Check again", instead of only the console.
 */
export const OpenFailed: Story = {
  args: { threads: THREADS.slice(1, 2), answerInPlace: {} },
  decorators: [
    (Story) => (
      <CopilotKitProvider runtimeUrl="http://127.0.0.1:9/api/copilotkit" showDevConsole={false}>
        <Story />
      </CopilotKitProvider>
    ),
  ],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Answer here' }));
    const row = canvas.getByTestId('pending-thread').closest('li')!;
    const alert = await within(row).findByRole('alert', {}, { timeout: 10_000 });
    await expect(alert).toHaveTextContent(/^The request could not be opened: /);
    await expect(within(alert).getByRole('button', { name: 'Check again' })).toBeInTheDocument();
  },
};
