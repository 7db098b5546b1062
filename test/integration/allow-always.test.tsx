import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { CopilotChat, CopilotKitProvider } from '@copilotkit/react-core/v2';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { createInterruptHistory } from '../../src/history';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { Chat, Interrupts, renderChat, sendMessage } from './harness';

// "Always allow <tool> in this conversation" through the real provider and CopilotChat: every
// user message makes the agent ask to approve the same tool again.
const approvalFor = (n: number, toolName = 'delete_files') => ({
  id: `approve-${n}`,
  reason: 'aidev:tool_approval',
  toolCallId: `call-${n}`,
  message: `Delete batch ${n}?`,
  metadata: { toolName, arguments: { batch: n } },
});

function chat(history = createInterruptHistory(), allowAlways: boolean | string[] = true) {
  let asked = 0;
  const agent = new ScriptedAgent((input) =>
    input.resume?.length
      ? [runStarted(input), ...textMessage(`reply-${input.runId}`, `Resumed ${input.resume[0].interruptId}.`), runFinished(input)]
      : [runStarted(input), runFinished(input, interruptOutcome(approvalFor(++asked)))],
  );
  const config = (allow: boolean | string[]) => ({
    resolveDelayMs: 0,
    history,
    allowAlways: allow,
    defaults: { 'aidev:tool_approval': ToolApprovalCard },
  });
  const { rerender } = renderChat({ agent, threadId: 'thread-a', config: config(allowAlways) });
  /** The app passes a new `allowAlways` to the mounted hook. */
  const setAllowAlways = (allow: boolean | string[]) => rerender(<Chat agent={agent} threadId="thread-a" config={config(allow)} />);
  return { agent, history, setAllowAlways };
}

const resumes = (agent: ScriptedAgent) => agent.runs.filter((run) => run.resume?.length).map((run) => run.resume![0]);

describe('allowAlways', () => {
  it('given "Always allow" on one approval, should answer the next approvals of that tool in the thread by itself, until revoked', async () => {
    const { agent, history } = chat();
    await sendMessage('Delete batch 1');
    fireEvent.click(await screen.findByLabelText('Always allow delete_files in this conversation'));
    fireEvent.click(screen.getByTestId('approval-approve'));
    expect(await screen.findByText('Resumed approve-1.')).toBeInTheDocument();
    expect(history.allowedTools('thread-a')).toEqual(['delete_files']);

    // The second approval of the same tool: nobody clicks.
    await sendMessage('Delete batch 2');
    expect(await screen.findByText('Resumed approve-2.')).toBeInTheDocument();
    expect(resumes(agent)).toEqual([
      { interruptId: 'approve-1', status: 'resolved', payload: { approved: true } },
      { interruptId: 'approve-2', status: 'resolved', payload: { approved: true, autoApproved: true } },
    ]);
    const auto = await screen.findByTestId('approval-auto-approved');
    const card = auto.closest('[data-testid="approval-card-resolved"]') as HTMLElement;
    expect(within(card).getByTestId('approval-status')).toHaveTextContent('Auto-approved');

    // Revoked: the third approval asks again.
    fireEvent.click(within(card).getByTestId('approval-revoke'));
    await waitFor(() => expect(history.allowedTools('thread-a')).toEqual([]));
    await sendMessage('Delete batch 3');
    expect(await screen.findByTestId('approval-approve')).toBeInTheDocument();
    expect(resumes(agent)).toHaveLength(2);
  });

  it('given an open approval, when the app turns allowAlways on or off, the card should offer "Always allow" accordingly', async () => {
    const { setAllowAlways } = chat(createInterruptHistory(), false);
    await sendMessage('Delete batch 1');
    expect(await screen.findByTestId('approval-approve')).toBeInTheDocument();
    expect(screen.queryByLabelText('Always allow delete_files in this conversation')).toBeNull();

    setAllowAlways(['delete_files']);
    expect(await screen.findByLabelText('Always allow delete_files in this conversation')).toBeInTheDocument();
    setAllowAlways(false);
    await waitFor(() => expect(screen.queryByLabelText('Always allow delete_files in this conversation')).toBeNull());
  });

  it('given an auto-approved answer in the transcript, when only the component holding the hook turns allowAlways off, its card should stop offering Revoke', async () => {
    // The hook's own component re-renders; the chat beside it is not re-rendered by the app.
    let agentRuns = 0;
    const agent = new ScriptedAgent((input) =>
      input.resume?.length
        ? [runStarted(input), ...textMessage(`reply-${input.runId}`, `Resumed ${input.resume[0].interruptId}.`), runFinished(input)]
        : [runStarted(input), runFinished(input, interruptOutcome(approvalFor(++agentRuns)))],
    );
    function Hook() {
      const [allow, setAllow] = useState(true);
      return (
        <>
          <Interrupts resolveDelayMs={0} allowAlways={allow} defaults={{ 'aidev:tool_approval': ToolApprovalCard }} />
          <button type="button" onClick={() => setAllow((a) => !a)}>
            Toggle always allow
          </button>
        </>
      );
    }
    render(
      <CopilotKitProvider agents__unsafe_dev_only={{ default: agent }}>
        <Hook />
        <div style={{ height: 600 }}>
          <CopilotChat threadId="thread-a" />
        </div>
      </CopilotKitProvider>,
    );
    await sendMessage('Delete batch 1');
    fireEvent.click(await screen.findByLabelText('Always allow delete_files in this conversation'));
    fireEvent.click(screen.getByTestId('approval-approve'));
    expect(await screen.findByText('Resumed approve-1.')).toBeInTheDocument();
    await sendMessage('Delete batch 2');
    expect(await screen.findByText('Resumed approve-2.')).toBeInTheDocument();
    expect(await screen.findByTestId('approval-revoke')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Toggle always allow' }));
    await waitFor(() => expect(screen.queryByTestId('approval-revoke')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Toggle always allow' }));
    expect(await screen.findByTestId('approval-revoke')).toBeInTheDocument();
  });

  it('given a tool the app does not list, should not offer "Always allow" for it', async () => {
    chat(createInterruptHistory(), ['deploy_service']);
    await sendMessage('Delete batch 1');
    expect(await screen.findByTestId('approval-approve')).toBeInTheDocument();
    expect(screen.queryByTestId('approval-always-allow')).toBeNull();
  });
});
