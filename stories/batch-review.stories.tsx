import type { Meta, StoryObj } from '@storybook/react-vite';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import '@copilotkit/react-core/v2/styles.css';
import { useState } from 'react';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import { useInterruptRenderers } from '../components/interrupt-renderers';
import { interruptOutcome, runFinished, runStarted, ScriptedAgent, textMessage } from '../test/helpers/scripted-agent';

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

function Interrupts() {
  return useInterruptRenderers();
}

/** Three approvals in one set, in the real v2 chat: the batch bar answers them together. */
function PlanInChat() {
  const [agent] = useState(createPlanningAgent);
  return (
    <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
      <Interrupts />
      <div style={{ height: 720, maxWidth: 720 }}>
        <CopilotChat />
      </div>
    </CopilotKitProvider>
  );
}

const meta = {
  title: 'Integration/Batch review in CopilotChat',
  component: PlanInChat,
  parameters: {
    layout: 'fullscreen',
    // CopilotKit 1.74's own icon-only buttons have no accessible name (axe: button-name); not ours to fix.
    a11y: { context: { exclude: ['[data-testid="copilot-add-menu-button"]', '[data-testid="copilot-send-button"]'] } },
  },
} satisfies Meta<typeof PlanInChat>;
export default meta;
type Story = StoryObj<typeof meta>;

async function askForPlan(canvas: ReturnType<typeof within>) {
  await userEvent.type(await canvas.findByTestId('copilot-chat-textarea'), 'Ship the release');
  await waitFor(() => expect(canvas.getByTestId('copilot-send-button')).toBeEnabled());
  await userEvent.click(canvas.getByTestId('copilot-send-button'));
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
