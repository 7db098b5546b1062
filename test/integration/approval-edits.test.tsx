import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ToolApprovalCard } from '../../components/tool-approval-card/tool-approval-card';
import { ScriptedAgent, interruptOutcome, runFinished, runStarted, textMessage } from '../helpers/scripted-agent';
import { renderChat, sendMessage } from './harness';

// The direct-mode approval card through the real provider and CopilotChat: the agent receives
// exactly the approved, edited, rejected or dismissed answer.
const deploy = {
  id: 'approve-deploy',
  reason: 'aidev:tool_approval',
  toolCallId: 'call-deploy',
  message: 'Deploy the api?',
  metadata: { toolName: 'deploy_service', arguments: { service: 'api', replicas: 2 } },
};

function chatWithApproval() {
  const agent = new ScriptedAgent((input, n) =>
    n === 0
      ? [runStarted(input), runFinished(input, interruptOutcome(deploy))]
      : [runStarted(input), ...textMessage(`reply-${n}`, 'Understood.'), runFinished(input)],
  );
  renderChat({ agent, config: { resolveDelayMs: 0, defaults: { 'aidev:tool_approval': ToolApprovalCard } } });
  return agent;
}

describe('ToolApprovalCard in the chat (direct mode)', () => {
  it('given edited arguments, should send {approved: true, editedArgs} and keep the edit in the transcript', async () => {
    const agent = chatWithApproval();
    await sendMessage('Deploy it');
    fireEvent.click(await screen.findByTestId('approval-edit-open'));
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), { target: { value: '{"service": "api", "replicas": 4}' } });
    fireEvent.click(screen.getByTestId('approval-approve-edited'));

    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: deploy.id, status: 'resolved', payload: { approved: true, editedArgs: { service: 'api', replicas: 4 } } },
    ]);
    // The transcript's compact card says the arguments were edited; its details show how.
    const resolved = await screen.findByTestId('approval-card-resolved');
    expect(within(resolved).getByTestId('read-only-answer')).toHaveTextContent('Edited arguments');
    fireEvent.click(within(resolved).getByRole('button', { name: 'Details' }));
    expect(within(resolved).getByTestId('approval-edited-args')).toHaveTextContent('replicas: 2 → 4');
  });

  it('given a rejection with a reason, should send {approved: false, reason}', async () => {
    const agent = chatWithApproval();
    await sendMessage('Deploy it');
    fireEvent.change(await screen.findByLabelText('Reason (optional)'), { target: { value: 'Freeze week' } });
    fireEvent.click(screen.getByTestId('approval-reject'));

    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs[1].resume).toEqual([
      { interruptId: deploy.id, status: 'resolved', payload: { approved: false, reason: 'Freeze week' } },
    ]);
  });

  it('given a dismissal, should send a cancel, not a rejection', async () => {
    const agent = chatWithApproval();
    await sendMessage('Deploy it');
    fireEvent.click(await screen.findByTestId('approval-dismiss'));

    await waitFor(() => expect(agent.runs).toHaveLength(2));
    expect(agent.runs[1].resume).toEqual([{ interruptId: deploy.id, status: 'cancelled' }]);
  });
});
