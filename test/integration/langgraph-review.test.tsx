import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ScriptedAgent } from '../helpers/scripted-agent';
import { sendMessage } from './harness';
import { chatWithLangGraphValue, graphResume } from './langgraph-chat';

// A LangGraph review request (agent-inbox's HumanInterrupt) as @ag-ui/langgraph sends it with
// emitInterruptOutcome, through the real normalizeInterrupts() middleware, the real provider and
// CopilotChat. The scripted agent stands where the bridge would: it records the resume the graph
// would get (the real graph is in test/node/langgraph).
const LANGGRAPH_ID = '0f3c9a7e5b1d4c2a8e6f0b9d7c5a3e1f';
const request = (config: Record<string, unknown>) => ({
  action_request: { action: 'send_email', args: { to: 'ops@example.com', subject: 'Deploy done' } },
  config,
  description: 'Send the deploy email?',
});
const ALL = { allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true };

const chatWithReview = (config: Record<string, unknown>, value: unknown = [request(config)]) => chatWithLangGraphValue(LANGGRAPH_ID, value);

/** What the graph resumes with: the HumanResponse list, under LangGraph's own interrupt id. */
const graphGot = (agent: ScriptedAgent) => graphResume(agent, LANGGRAPH_ID);

describe('A LangGraph review request in the chat', () => {
  it('given a request that allows accept and ignore only, should offer Approve and Dismiss but no Edit, Reject or reason, and answer accept', async () => {
    const agent = chatWithReview({ allow_accept: true, allow_edit: false, allow_respond: false, allow_ignore: true });
    await sendMessage('Send it');
    expect(await screen.findByText('Send the deploy email?')).toBeInTheDocument();
    expect(screen.getByText('send_email')).toBeInTheDocument();
    expect(screen.getByTestId('approval-approve')).toBeInTheDocument();
    expect(screen.getByTestId('approval-dismiss')).toBeInTheDocument();
    expect(screen.queryByTestId('approval-edit-open')).toBeNull();
    expect(screen.queryByTestId('approval-reject')).toBeNull();
    expect(screen.queryByRole('textbox', { name: /reason/i })).toBeNull();

    fireEvent.click(screen.getByTestId('approval-approve'));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual([{ type: 'accept', args: null }]);
  });

  it('given a request that allows respond only, should offer Reject with its reason and nothing else, and answer response with the reason', async () => {
    const agent = chatWithReview({ allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false });
    await sendMessage('Send it');
    fireEvent.change(await screen.findByLabelText('Reason for rejecting (optional)'), { target: { value: 'Wait for QA' } });
    expect(screen.queryByTestId('approval-approve')).toBeNull();
    expect(screen.queryByTestId('approval-edit-open')).toBeNull();
    expect(screen.queryByTestId('approval-dismiss')).toBeNull();
    fireEvent.click(screen.getByTestId('approval-reject'));

    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual([{ type: 'response', args: 'Wait for QA' }]);
    await waitFor(() => expect(screen.getByTestId('approval-status')).toHaveTextContent('Rejected'));
  });

  it('given every answer allowed and a typed reason, Approve sends accept without it (an accept carries no text)', async () => {
    const agent = chatWithReview(ALL);
    await sendMessage('Send it');
    fireEvent.change(await screen.findByLabelText('Reason for rejecting (optional)'), { target: { value: 'looks fine' } });
    fireEvent.click(screen.getByTestId('approval-approve'));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual([{ type: 'accept', args: null }]);
    // The read-only card shows what was sent: approved, no reason.
    await waitFor(() => expect(screen.getByTestId('approval-status')).toHaveTextContent('Approved'));
    expect(screen.queryByText('looks fine')).toBeNull();
  });

  it('given edited arguments, should answer edit with the action and exactly the edited arguments', async () => {
    const agent = chatWithReview(ALL);
    await sendMessage('Send it');
    fireEvent.click(await screen.findByTestId('approval-edit-open'));
    fireEvent.change(screen.getByLabelText('Arguments (JSON)'), {
      target: { value: '{"to": "team@example.com", "subject": "Deploy done"}' },
    });
    fireEvent.click(screen.getByTestId('approval-approve-edited'));
    expect(await screen.findByText('Understood.')).toBeInTheDocument();
    expect(graphGot(agent)).toEqual([
      { type: 'edit', args: { action: 'send_email', args: { to: 'team@example.com', subject: 'Deploy done' } } },
    ]);
  });

  it('given a dismissal, should answer ignore', async () => {
    const agent = chatWithReview(ALL);
    await sendMessage('Send it');
    fireEvent.click(await screen.findByTestId('approval-dismiss'));
    await waitFor(() => expect(agent.runs).toHaveLength(2));
    expect(graphGot(agent)).toEqual([{ type: 'ignore', args: null }]);
  });

  it('given a request without a config, should show the plain interrupt with the problem on screen and in the console', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const noConfig: Record<string, unknown> = request(ALL);
    delete noConfig.config;
    chatWithReview(ALL, noConfig);
    await sendMessage('Send it');
    const card = await screen.findByTestId('interrupt-builtin-fallback');
    const problem = "The LangGraph review request's config should be an object, but it is missing.";
    expect(within(card).getByRole('note')).toHaveTextContent(problem);
    expect(screen.queryByTestId('approval-approve')).toBeNull();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(problem));
    warn.mockRestore();
  });
});
