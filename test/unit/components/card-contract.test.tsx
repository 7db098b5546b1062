import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, type ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultFallback, defaultRenderers } from '../../../components/default-renderers';
import { FallbackInterruptCard } from '../../../components/fallback-interrupt-card/fallback-interrupt-card';
import { TimePickerCard } from '../../../components/time-picker-card/time-picker-card';
import { ToolApprovalCard } from '../../../components/tool-approval-card/tool-approval-card';
import { UserQuestionCard } from '../../../components/user-question-card/user-question-card';
import type { AnyInterruptRenderer, InterruptRendererProps } from '../../../hooks/renderer-props';
import type { InterruptStatus } from '../../../src/session/status';
import { createRendererRegistry } from '../../../src/registry';
import { unwrapInterrupt } from '../../../src/unwrap';
import {
  approvalInterrupt,
  directApprovalInterrupt,
  fixedClock,
  FIXED_NOW,
  mastraTimePicker,
  questionInterrupt,
  SLOTS,
  ticket,
  timePickerInterrupt,
} from '../../../stories/support/fixtures';
import { zhCN } from '../../../src/i18n/locales/zh-CN';

/** Renderer props as the host hook passes them; resolve/cancel are spies that change nothing. */
function props(raw: unknown, overrides: Partial<InterruptRendererProps<any>> = {}): InterruptRendererProps<any> {
  const status: InterruptStatus = overrides.status ?? 'pending';
  return {
    interrupt: unwrapInterrupt(raw),
    status,
    readOnly: status !== 'pending',
    locale: 'en',
    resolve: vi.fn(),
    cancel: vi.fn(),
    retry: vi.fn(),
    ...overrides,
  };
}

afterEach(() => vi.useRealTimers());

describe('defaultRenderers', () => {
  it('draws the card each reason names, and the fallback for the rest, once its code has arrived', async () => {
    const registry = createRendererRegistry<AnyInterruptRenderer>(defaultRenderers, defaultFallback);
    const cases: Array<[unknown, string]> = [
      [approvalInterrupt(), 'approval-card'],
      [questionInterrupt(), 'user-question-card'],
      [timePickerInterrupt, 'time-picker-card'],
      [{ id: 'x', reason: 'acme:other' }, 'fallback-interrupt-card'],
    ];
    for (const [raw, testId] of cases) {
      const Renderer = registry.pick(unwrapInterrupt(raw));
      const { unmount } = render(
        <Suspense fallback={<p>loading</p>}>
          <Renderer {...props(raw)} />
        </Suspense>,
      );
      expect(await screen.findByTestId(testId)).toBeInTheDocument();
      unmount();
    }
  });
});

describe('restored from history: a compact summary, the details on demand, nothing else to click', () => {
  const cases: Array<[string, ComponentType<any>, unknown, unknown, string, string]> = [
    [
      'TimePickerCard',
      TimePickerCard,
      timePickerInterrupt,
      { chosen_time: SLOTS[0].iso, chosen_label: SLOTS[0].label },
      'time-picker-picked',
      SLOTS[0].label,
    ],
    [
      'ToolApprovalCard',
      ToolApprovalCard,
      approvalInterrupt(),
      { metadata: { ticket: { ...ticket, status: 'approved' } } },
      'approval-card-resolved',
      ticket.sn,
    ],
    ['UserQuestionCard', UserQuestionCard, questionInterrupt(), { answers: [] }, 'user-question-answered', 'No answer'],
    ['FallbackInterruptCard', FallbackInterruptCard, { id: 'x', reason: 'acme:x' }, {}, 'fallback-interrupt-card', 'acme:x'],
  ];
  it.each(cases)('%s', async (_name, Card, raw, result, testId, answer) => {
    render(<Card {...props(raw, { status: 'resolved', result })} />);
    const card = screen.getByTestId(testId);
    expect(within(card).getByTestId('read-only-answer')).toHaveTextContent(answer);
    // Given a closed card, its only button is the disclosure, and the details are not in the DOM.
    const toggle = screen.getByRole('button', { name: 'Details' });
    expect(screen.getAllByRole('button')).toEqual([toggle]);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('read-only-details')).toBeNull();
    // When opened by keyboard, the details appear, named by the button, and focus stays on it.
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('aria-controls', screen.getByTestId('read-only-details').id);
    expect(toggle).toHaveFocus();
    expect(screen.getAllByRole('button')).toEqual([toggle]);
    // And closed again, they leave the DOM.
    await userEvent.keyboard(' ');
    expect(screen.queryByTestId('read-only-details')).toBeNull();
  });
});

describe('the first click wins, even when the host is slow to re-render', () => {
  it('TimePickerCard resolves once on a double click and shows Booked at once', async () => {
    const p = props(timePickerInterrupt);
    render(<TimePickerCard {...p} />);
    await userEvent.dblClick(screen.getByRole('button', { name: 'Monday 9:00 AM' }));
    expect(p.resolve).toHaveBeenCalledTimes(1);
    expect(p.resolve).toHaveBeenCalledWith({ chosen_time: SLOTS[2].iso, chosen_label: 'Monday 9:00 AM' });
    expect(screen.getByTestId('time-picker-picked')).toHaveTextContent('Booked');
    expect(screen.getByRole('status')).toHaveTextContent('Booked: Monday 9:00 AM');
  });

  it('ToolApprovalCard direct mode resolves once', async () => {
    const p = props(directApprovalInterrupt);
    render(<ToolApprovalCard {...p} />);
    await userEvent.click(screen.getByTestId('approval-approve'));
    expect(screen.queryByTestId('approval-reject')).toBeNull();
    expect(p.resolve).toHaveBeenCalledTimes(1);
  });

  it('Skip cancels once and never resolves', async () => {
    const p = props(questionInterrupt());
    render(<UserQuestionCard {...p} />);
    await userEvent.click(screen.getByTestId('user-question-skip'));
    expect(p.cancel).toHaveBeenCalledTimes(1);
    expect(p.resolve).not.toHaveBeenCalled();
    expect(screen.getByTestId('user-question-skipped')).toBeInTheDocument();
  });
});

describe('expiry', () => {
  it('turns read-only "Expired" when the countdown runs out, without resolving', () => {
    vi.useFakeTimers({ now: FIXED_NOW });
    const p = props({ ...timePickerInterrupt, expiresAt: new Date(FIXED_NOW + 2_000).toISOString() }, { now: undefined } as Partial<
      InterruptRendererProps<unknown>
    >);
    render(<TimePickerCard {...p} />);
    expect(screen.getByRole('timer')).toHaveTextContent('Expires in 0:02');
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByRole('timer')).toHaveTextContent('Expires in 0:01');
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.getByTestId('time-picker-expired')).toHaveTextContent('Expired');
    expect(screen.getByRole('status')).toHaveTextContent('Expired');
    expect(p.resolve).not.toHaveBeenCalled();
  });

  it.each([
    ['a second and a half later', 1_500, 'Expires in 9:59'],
    ['after the deadline passed', 11 * 60_000, undefined],
  ])(
    'given a card with a deadline rendered on a server and hydrated %s, should hydrate without a mismatch, then show the time left',
    async (_when, later, timer) => {
      vi.useFakeTimers({ now: FIXED_NOW });
      const raw = { ...timePickerInterrupt, expiresAt: new Date(FIXED_NOW + 10 * 60_000).toISOString() };
      const card = () => <TimePickerCard {...props(raw, { now: undefined } as Partial<InterruptRendererProps<unknown>>)} />;
      const container = document.body.appendChild(document.createElement('div'));
      container.innerHTML = renderToString(card());

      vi.setSystemTime(FIXED_NOW + later);
      const problems: unknown[] = [];
      const root = await act(async () => hydrateRoot(container, card(), { onRecoverableError: (error) => void problems.push(error) }));
      try {
        expect(problems).toEqual([]);
        if (timer) expect(within(container).getByRole('timer')).toHaveTextContent(timer);
        else expect(within(container).getByTestId('time-picker-expired')).toHaveTextContent('Expired');
      } finally {
        act(() => root.unmount());
        container.remove();
      }
    },
  );

  it('shows "Expired" when the host says so', () => {
    render(<UserQuestionCard {...props(questionInterrupt(), { status: 'expired' })} />);
    expect(screen.getByTestId('user-question-expired')).toHaveTextContent('Expired');
  });
});

describe('ToolApprovalCard operations', () => {
  it('re-enables Refresh after the 2 s cooldown', async () => {
    vi.useFakeTimers({ now: FIXED_NOW, shouldAdvanceTime: true });
    const onInterruptResume = vi.fn(async () => ticket);
    render(<ToolApprovalCard {...props(approvalInterrupt(), { onInterruptResume })} now={fixedClock} />);
    await userEvent.click(screen.getByTestId('approval-refresh'));
    await vi.waitFor(() => expect(screen.getByTestId('approval-refresh')).toBeDisabled());
    await act(async () => {
      vi.advanceTimersByTime(2_000);
    });
    expect(screen.getByTestId('approval-refresh')).toBeEnabled();
    expect(onInterruptResume).toHaveBeenCalledTimes(1);
  });

  it('says a ticket operation failed even when what it threw cannot become text', async () => {
    // A bare object has no toString: turning it into text throws, which used to lose the message.
    const onInterruptResume = vi.fn(() => Promise.reject(Object.create(null)));
    render(<ToolApprovalCard {...props(approvalInterrupt(), { onInterruptResume })} />);
    await userEvent.click(screen.getByTestId('approval-cancel'));
    expect(await screen.findByTestId('approval-operation-error')).toHaveTextContent('That did not work: an unreadable error');
    expect(screen.getByTestId('approval-cancel')).toBeEnabled();
  });

  it('offers no ticket operations without an onInterruptResume callback', () => {
    render(<ToolApprovalCard {...props(approvalInterrupt())} />);
    expect(screen.getByTestId('approval-card')).toBeInTheDocument();
    expect(screen.queryByTestId('approval-cancel')).toBeNull();
    expect(screen.queryByTestId('approval-refresh')).toBeNull();
  });
});

describe('labels, locale and errors', () => {
  it('speaks English throughout when a locale comes without its labels', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { container } = render(<TimePickerCard {...props(mastraTimePicker({ slots: [] }), { locale: 'zh-CN' })} now={fixedClock} />);
    expect(screen.getByTestId('time-picker-card')).toHaveTextContent('Book a call');
    expect(screen.getAllByTestId('time-picker-slot')[0]).toHaveTextContent('Tomorrow');
    expect(container.querySelector('[lang]')).toHaveAttribute('lang', 'en');
  });

  it('merges label overrides over the locale', () => {
    render(<TimePickerCard {...props(timePickerInterrupt, { ...zhCN, labels: { ...zhCN.labels, timePickerEyebrow: 'Schedule' } })} />);
    expect(screen.getByTestId('time-picker-card')).toHaveTextContent('Schedule');
    expect(screen.getByTestId('time-picker-cancel')).toHaveTextContent('这些时间都不合适');
  });

  it('in error, keeps the answer and Retry calls retry', async () => {
    const p = props(timePickerInterrupt, { status: 'error', result: { cancelled: true }, error: 'offline' });
    render(<TimePickerCard {...p} />);
    expect(screen.getByTestId('time-picker-cancelled')).toHaveTextContent('No time picked.');
    expect(screen.getByTestId('interrupt-error')).toHaveTextContent('offline');
    // Screen readers hear what went wrong, not only that something did.
    expect(screen.getByRole('status')).toHaveTextContent('Your answer could not be sent. offline');
    await userEvent.click(screen.getByTestId('interrupt-retry'));
    expect(p.retry).toHaveBeenCalledTimes(1);
  });

  it('in error without retry (nothing to resend), shows the error but no Retry button', () => {
    render(
      <TimePickerCard
        {...props(timePickerInterrupt, { status: 'error', result: { cancelled: true }, error: 'expired set', retry: undefined })}
      />,
    );
    expect(screen.getByTestId('interrupt-error')).toHaveTextContent('expired set');
    expect(screen.queryByTestId('interrupt-retry')).toBeNull();
  });

  it('becomes interactive again when the host puts it back to pending', () => {
    const p = props(timePickerInterrupt, { status: 'cancelled' });
    const { rerender } = render(<TimePickerCard {...p} />);
    expect(screen.getByTestId('time-picker-cancelled')).toBeInTheDocument();
    rerender(<TimePickerCard {...p} status="pending" readOnly={false} />);
    expect(screen.getByTestId('time-picker-card')).toBeInTheDocument();
  });
});
