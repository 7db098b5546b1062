import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';
import { CHAT_STORY_PARAMETERS, ChatStory, sendMessage } from './support/chat-story';

const STEPS = ['create_branch', 'run_migrations', 'deploy_service'];

/** An agent that plans three tool calls and asks for each to be approved, then reports what it may run. */
function createPlanningAgent() {
  return new ScriptedAgent((input, run) => {
    if (run === 0) {
      const approvals = STEPS.map((tool, i) => ({
        id: `approve-${tool}`,
        reason: 'aidev:tool_approval',
        toolCallId: `call-${i}`,
        message: `Run ${tool}?`,
        metadata: { toolName: tool, arguments: { step: i + 1 } },
      }));
      return [runStarted(input), runFinished(input, interruptOutcome(...approvals))];
    }
    const approved = (input.resume ?? []).filter((entry) => (entry.payload as { approved?: boolean } | undefined)?.approved).length;
    return [runStarted(input), ...textMessage(`reply-${run}`, `${approved} of ${STEPS.length} steps approved.`), runFinished(input)];
  });
}

/** Three approvals in one set, in the real v2 chat: the batch bar answers them together. */
function PlanInChat() {
  return <ChatStory createAgent={createPlanningAgent} height={720} />;
}

const meta = {
  title: 'Integration/Batch review in CopilotChat',
  component: PlanInChat,
  parameters: CHAT_STORY_PARAMETERS,
} satisfies Meta<typeof PlanInChat>;
export default meta;
type Story = StoryObj<typeof meta>;

async function askForPlan(canvas: ReturnType<typeof within>) {
  await sendMessage(canvas, 'Ship the release');
  return canvas.findByRole('group', { name: '3 approvals wait for you' }, { timeout: 5000 });
}

/** The set as it arrives: the bar above three approval cards. */
export const Waiting: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const bar = await askForPlan(canvas);
    await expect(within(bar).getByRole('button', { name: 'Approve all (3)' })).toBeEnabled();
    await expect(await canvas.findAllByTestId('approval-card')).toHaveLength(3);
  },
};

/** One card rejected on its own, then "Approve all" for the rest: one resume carries all three. */
export const ApproveTheRest: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await askForPlan(canvas);
    const cards = await canvas.findAllByTestId('approval-card');
    await userEvent.click(within(cards[1]).getByTestId('approval-reject'));
    const bar = await canvas.findByRole('group', { name: '2 approvals wait for you' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Approve all (2)' }));
    await expect(await canvas.findByText('2 of 3 steps approved.', {}, { timeout: 5000 })).toBeInTheDocument();
  },
};

/** "Reject all" with one reason, from the keyboard. */
export const RejectAll: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const bar = await askForPlan(canvas);
    await userEvent.type(within(bar).getByLabelText('Reason for rejecting all (optional)'), 'Release freeze');
    await userEvent.click(within(bar).getByRole('button', { name: 'Reject all (3)' }));
    await expect(await canvas.findByText('0 of 3 steps approved.', {}, { timeout: 5000 })).toBeInTheDocument();
  },
};
