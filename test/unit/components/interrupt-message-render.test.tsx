import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { InterruptMessageRender } from '../../../components/interrupt-message-render';
import type { InterruptRendererProps } from '../../../hooks/renderer-props';
import { InterruptReason, MessageRole, MessageStatus, type InterruptMessage } from '../../../src/protocol';
import { questionInterrupt, questions } from '../../../stories/support/fixtures';

const message = (content: InterruptMessage['content']): InterruptMessage => ({
  id: 'm1',
  messageId: 'm1',
  role: MessageRole.Interrupt,
  status: MessageStatus.Pending,
  content,
});

describe('InterruptMessageRender', () => {
  it('sends a cancelled resume record when a stored question is skipped', async () => {
    const onInterruptResume = vi.fn();
    render(
      <InterruptMessageRender
        message={message({ outcome: { type: 'interrupt', interrupts: [questionInterrupt() as never] } })}
        onInterruptResume={onInterruptResume}
      />,
    );
    await userEvent.click(await screen.findByTestId('user-question-skip'));
    expect(onInterruptResume).toHaveBeenCalledWith(
      { interruptId: 'interrupt_question_1', reason: 'aidev:user_question', status: 'cancelled', payload: {} },
      expect.objectContaining({ id: 'interrupt_question_1' }),
    );
    expect(screen.getByTestId('user-question-skipped')).toBeInTheDocument();
  });

  it('shows an answered interrupt of an interrupt outcome as its echo when the result is stored with it', async () => {
    const result = {
      interruptId: 'interrupt_question_1',
      reason: InterruptReason.UserQuestion as const,
      status: 'resolved' as const,
      payload: { answers: [{ question: questions[0].question, answer: [{ label: 'basic', description: 'Plain bubble sort' }] }] },
    };
    render(
      <InterruptMessageRender message={message({ outcome: { type: 'interrupt', interrupts: [questionInterrupt() as never] }, result })} />,
    );
    expect(await screen.findByTestId('read-only-answer')).toHaveTextContent('basic');
    // Nothing to answer any more: the one button opens the details.
    await userEvent.click(screen.getByRole('button', { name: 'Details' }));
    expect(screen.getAllByRole('button')).toHaveLength(1);
    expect(screen.getByTestId('user-question-answered')).toHaveTextContent('basic — Plain bubble sort');
  });

  it('shows a stored answer list with broken entries without crashing the transcript', async () => {
    const result = {
      interruptId: 'interrupt_question_1',
      reason: InterruptReason.UserQuestion as const,
      status: 'resolved' as const,
      payload: {
        answers: [null, 7, { question: questions[0].question, answer: [{ label: 'basic', description: 'Plain bubble sort' }] }] as never,
      },
    };
    render(<InterruptMessageRender message={message({ outcome: { type: 'success' }, result })} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const details = within(screen.getByTestId('read-only-details'));
    expect(details.getByText(questions[0].question)).toBeInTheDocument();
    expect(details.getByText(/basic — Plain bubble sort/)).toBeInTheDocument();
  });

  it('uses the app renderers over the built-in cards, and renders nothing but the text without an outcome', () => {
    function Custom({ interrupt }: InterruptRendererProps) {
      return <p>custom {interrupt.reason}</p>;
    }
    const { rerender } = render(
      <InterruptMessageRender
        message={message({ outcome: { type: 'interrupt', interrupts: [questionInterrupt() as never] } })}
        renderers={{ 'aidev:user_question': Custom }}
      />,
    );
    expect(screen.getByText('custom aidev:user_question')).toBeInTheDocument();
    rerender(<InterruptMessageRender message={message({ message: 'Nothing to do' })} />);
    expect(screen.getByTestId('interrupt-message')).toHaveTextContent('Nothing to do');
    expect(screen.queryByRole('group')).toBeNull();
  });

  describe('given the same renderer rules as the live hook', () => {
    it('should show a stored interrupt that cannot be fully read with the fallback and its problem, not the card its reason names', async () => {
      const unreadable = { id: 7, reason: InterruptReason.UserQuestion, metadata: { questions: questions } };
      render(<InterruptMessageRender message={message({ outcome: { type: 'interrupt', interrupts: [unreadable as never] } })} />);
      expect(await screen.findByTestId('fallback-interrupt-problem')).toHaveTextContent(/id should be non-empty text, but it is a number/);
      expect(screen.queryByTestId('user-question-card')).not.toBeInTheDocument();
    });

    it('should replace a renderer that throws with the fallback naming the error, and keep the message text', async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      function Broken(): never {
        throw new Error('no questions today');
      }
      render(
        <InterruptMessageRender
          message={message({ message: 'Before the card', outcome: { type: 'interrupt', interrupts: [questionInterrupt() as never] } })}
          renderers={{ 'aidev:user_question': Broken }}
        />,
      );
      expect(await screen.findByTestId('fallback-interrupt-problem')).toHaveTextContent(
        'The "aidev:user_question" renderer failed: no questions today',
      );
      expect(screen.getByText('Before the card')).toBeInTheDocument();
      expect(error).toHaveBeenCalledWith(expect.stringContaining('"aidev:user_question" threw'), expect.any(Error), expect.anything());
      error.mockRestore();
    });
  });
});
