import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolApprovalCard } from '../../../components/tool-approval-card/tool-approval-card';
import { UserQuestionCard } from '../../../components/user-question-card/user-question-card';
import { unwrapInterrupt } from '../../../src/unwrap';
import { approvalInterrupt, deployApprovalInterrupt, questionInterrupt } from '../../../stories/support/fixtures';

afterEach(cleanup);

const props = (raw: unknown, extra: Record<string, unknown> = {}) => ({
  interrupt: unwrapInterrupt(raw),
  status: 'pending' as const,
  readOnly: false,
  locale: 'en',
  resolve: vi.fn(),
  cancel: vi.fn(),
  retry: vi.fn(),
  ...extra,
});

/** Lets the card's DOM observer and effects run. */
const settle = () => act(() => new Promise((done) => setTimeout(done, 0)));

describe('focus inside an open card, when an action replaces the control that had it', () => {
  it('given Edit arguments pressed by keyboard, should land on the first field of the form, not the page', async () => {
    render(<ToolApprovalCard {...props(deployApprovalInterrupt)} />);
    screen.getByTestId('approval-edit-open').focus();
    await userEvent.keyboard('{Enter}');
    await settle();
    expect(screen.getByTestId('approval-edit')).toBeInTheDocument();
    expect(document.activeElement).not.toBe(document.body);
    expect(screen.getByTestId('approval-edit').contains(document.activeElement)).toBe(true);
    expect(document.activeElement?.matches('input, textarea, select')).toBe(true);
  });

  it('given Back from the form, should stay in the card (its group), not the page', async () => {
    render(<ToolApprovalCard {...props(deployApprovalInterrupt)} />);
    screen.getByTestId('approval-edit-open').focus();
    await userEvent.keyboard('{Enter}');
    await settle();
    screen.getByRole('button', { name: 'Back' }).focus();
    await userEvent.keyboard('{Enter}');
    await settle();
    expect(screen.queryByTestId('approval-edit')).toBeNull();
    expect(document.activeElement).not.toBe(document.body);
    expect(screen.getByTestId('approval-card').contains(document.activeElement)).toBe(true);
  });

  it('given Refresh on a ticket, while it waits and after its cooldown starts, should keep focus on the card, not the page', async () => {
    let answer: (value: unknown) => void = () => {};
    const onInterruptResume = vi.fn(() => new Promise((resolve) => (answer = resolve)));
    render(<ToolApprovalCard {...props(approvalInterrupt(), { onInterruptResume })} />);
    screen.getByTestId('approval-refresh').focus();
    await userEvent.keyboard('{Enter}');
    await settle();
    expect(onInterruptResume).toHaveBeenCalledTimes(1);
    expect(document.activeElement).not.toBe(document.body);
    await act(async () => answer(undefined));
    await settle();
    expect(document.activeElement).not.toBe(document.body);
    expect(screen.getByTestId('approval-card').contains(document.activeElement)).toBe(true);
  });

  it('given a question answered by a pick, when the card moves to the next question, should focus that question', async () => {
    render(<UserQuestionCard {...props(questionInterrupt())} />);
    const [first] = screen.getAllByRole('radio');
    first.focus();
    await userEvent.keyboard(' ');
    await settle();
    expect(document.activeElement).not.toBe(document.body);
    expect(screen.getByTestId('user-question-card')).toHaveTextContent('2 / 3');
  });
});
