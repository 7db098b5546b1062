import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ScriptedAgent } from '../helpers/scripted-agent';
import { sendMessage } from './harness';
import { chatWithLangGraphValue, graphResume } from './langgraph-chat';

// A LangChain humanInTheLoopMiddleware request (HITLRequest) as @ag-ui/langgraph sends it with
// emitInterruptOutcome, through the real normalizeInterrupts() middleware, the real provider and
// CopilotChat. The scripted agent stands where the bridge would: it records the resume the graph
// would get (the real createAgent graph is in test/node/langgraph/langchain-hitl.test.ts).
const LANGGRAPH_ID = '7d1e0c4b9a8f4e3d2c1b0a9f8e7d6c5b';
const HITL_REQUEST = {
  actionRequests: [
    { name: 'tag_release', args: { version: 'v2.0.0' }, description: 'Tag the release?' },
    { name: 'send_email', args: { to: 'team@example.com', subject: 'v2 is out' }, description: 'Send this email?' },
    { name: 'delete_branch', args: { name: 'release-candidate' }, description: 'Delete this branch?' },
  ],
  reviewConfigs: [
    { actionName: 'tag_release', allowedDecisions: ['approve', 'edit'] },
    {
      actionName: 'send_email',
      allowedDecisions: ['approve', 'edit', 'reject'],
      argsSchema: { type: 'object', properties: { to: { type: 'string' }, subject: { type: 'string' } } },
    },
    { actionName: 'delete_branch', allowedDecisions: ['approve', 'reject'] },
  ],
};

const chatWithRequest = () => chatWithLangGraphValue(LANGGRAPH_ID, HITL_REQUEST);

/** What the middleware's interrupt() gets back: LangGraph's resume map holds the one HITLResponse. */
const graphGot = (agent: ScriptedAgent) => graphResume(agent, LANGGRAPH_ID);
const cardOf = async (message: string) => (await screen.findByText(message)).closest('[data-testid="approval-card"]') as HTMLElement;

describe('A LangChain humanInTheLoopMiddleware request in the chat', () => {
  it('given three gated tool calls, should draw three cards that offer only what each allows, and the batch bar', async () => {
    chatWithRequest();
    await sendMessage('Release v2');
    const tag = await cardOf('Tag the release?');
    const email = await cardOf('Send this email?');
    const branch = await cardOf('Delete this branch?');
    expect(within(tag).getByTestId('approval-edit-open')).toBeInTheDocument();
    expect(within(tag).queryByTestId('approval-reject')).toBeNull();
    expect(within(tag).queryByTestId('approval-dismiss')).toBeNull();
    expect(within(email).getByTestId('approval-edit-open')).toBeInTheDocument();
    expect(within(email).getByTestId('approval-reject')).toBeInTheDocument();
    expect(within(branch).queryByTestId('approval-edit-open')).toBeNull();
    expect(within(branch).getByTestId('approval-reject')).toBeInTheDocument();
    const bar = await screen.findByRole('group', { name: '3 approvals wait for you' });
    expect(within(bar).getByRole('button', { name: 'Approve all (3)' })).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Reject all (2)' })).toBeInTheDocument();
  });

  it('given Approve all, should send one resume whose decisions approve the three calls in order', async () => {
    const agent = chatWithRequest();
    await sendMessage('Release v2');
    const bar = await screen.findByRole('group', { name: '3 approvals wait for you' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve all (3)' }));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(agent.runs).toHaveLength(2);
    expect(graphGot(agent)).toEqual({ decisions: [{ type: 'approve' }, { type: 'approve' }, { type: 'approve' }] });
  });

  it('given the email rejected with a reason, then Approve all for the rest, should send the decisions in the order of the calls', async () => {
    const agent = chatWithRequest();
    await sendMessage('Release v2');
    const email = await cardOf('Send this email?');
    fireEvent.change(within(email).getByLabelText('Reason for rejecting (optional)'), { target: { value: 'Not before QA' } });
    fireEvent.click(within(email).getByTestId('approval-reject'));
    const bar = await screen.findByRole('group', { name: '2 approvals wait for you' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Approve all (2)' }));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual({
      decisions: [{ type: 'approve' }, { type: 'reject', message: 'Not before QA' }, { type: 'approve' }],
    });
  });

  it('given Reject all, should leave the call that cannot be rejected waiting, and send every decision once it is approved', async () => {
    const agent = chatWithRequest();
    await sendMessage('Release v2');
    const bar = await screen.findByRole('group', { name: '3 approvals wait for you' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Reject all (2)' }));
    const tag = await cardOf('Tag the release?');
    await waitFor(() => expect(agent.runs).toHaveLength(1));
    fireEvent.click(within(tag).getByTestId('approval-approve'));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual({ decisions: [{ type: 'approve' }, { type: 'reject' }, { type: 'reject' }] });
  });
});
