import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import fc from 'fast-check';
import { useState, type ComponentType } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FallbackInterruptCard } from '../../../components/fallback-interrupt-card/fallback-interrupt-card';
import { TimePickerCard } from '../../../components/time-picker-card/time-picker-card';
import { ToolApprovalCard } from '../../../components/tool-approval-card/tool-approval-card';
import { UserQuestionCard } from '../../../components/user-question-card/user-question-card';
import type { InterruptRendererProps } from '../../../hooks/renderer-props';
import { readableDateTime } from '../../../src/i18n/date-time';
import { zhCN } from '../../../src/i18n/locales/zh-CN';
import { InterruptReason } from '../../../src/protocol';
import type { InterruptStatus } from '../../../src/session/status';
import { unwrapInterrupt } from '../../../src/unwrap';
import {
  deployApprovalInterrupt,
  directApprovalInterrupt,
  langGraphReviewInterrupt,
  mastraTimePicker,
  questionInterrupt,
  SLOTS,
  timePickerInterrupt,
} from '../../../stories/support/fixtures';

/** An ISO 8601 date or date-time as agents send it: never shown to the user. */
const ISO = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2})?/;

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

afterEach(cleanup);

/** Opens every disclosure in the card (Details, folded values), as a curious user would. */
async function openEverything(container: HTMLElement) {
  const details = within(container).queryByRole('button', { name: /Details|详情/ });
  if (details) fireEvent.click(details);
  for (const fold of container.querySelectorAll('details')) fold.open = true;
}

// Dates an agent may send: any moment from 1970 to 2100, as full ISO, without milliseconds, or a day.
const moments = fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true });
const isoForms = moments.chain((date) =>
  fc.constantFrom(
    date.toISOString(),
    date.toISOString().slice(0, 19),
    date.toISOString().slice(0, 16).replace('T', ' '),
    date.toISOString().slice(0, 10),
  ),
);
const words = fc.stringMatching(/^[A-Za-z][A-Za-z ,.;]{0,199}[a-z]$/);

// Property runs render dozens of cards: generous on a loaded machine.
describe('an answered card shows the answer, with dates as people read them', { timeout: 30_000 }, () => {
  it('given any booked time, with or without its label, should show a label and never ISO text, summary or Details', async () => {
    await fc.assert(
      fc.asyncProperty(isoForms, fc.option(words, { nil: undefined }), fc.constantFrom('en', 'zh-CN'), async (iso, label, locale) => {
        cleanup(); // a failed run leaves its card behind
        const language = locale === 'zh-CN' ? zhCN : { locale: 'en' as const };
        const result = label === undefined ? { chosen_time: iso } : { chosen_time: iso, chosen_label: label };
        const { container } = render(<TimePickerCard {...props(timePickerInterrupt, { ...language, status: 'resolved', result })} />);
        const answer = screen.getByTestId('read-only-answer');
        expect(answer.textContent).toBe(label ?? readableDateTime(iso, locale));
        await openEverything(container);
        expect(container.textContent).not.toMatch(ISO);
        expect(screen.getByTestId('read-only-details')).toHaveTextContent(readableDateTime(iso, locale)!);
        cleanup();
      }),
      { numRuns: 60 },
    );
  });

  it('given a stored booking without its label, should show the label of the slot offered at that time', () => {
    render(<TimePickerCard {...props(timePickerInterrupt, { status: 'resolved', result: { chosen_time: SLOTS[2].iso } })} />);
    expect(screen.getByTestId('read-only-answer')).toHaveTextContent('Monday 9:00 AM');
    expect(screen.getByRole('status')).toHaveTextContent('Booked: Monday 9:00 AM');
  });

  it('given any long, many-part or date answers to the questions, should show every part whole and no ISO text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(words, isoForms), { minLength: 1, maxLength: 4 }), async (texts) => {
        cleanup(); // a failed run leaves its card behind
        const qs = texts.map((_, i) => ({ header: `Q${i}`, question: `Question ${i}?` }));
        const answers = texts.map((text, i) => ({ question: qs[i].question, answer: [{ label: 'others', description: text }] }));
        const { container } = render(<UserQuestionCard {...props(questionInterrupt(qs), { status: 'resolved', result: { answers } })} />);
        const answer = screen.getByTestId('read-only-answer');
        for (const text of texts) expect(answer.textContent).toContain(readableDateTime(text, 'en') ?? text);
        await openEverything(container);
        expect(container.textContent).not.toMatch(ISO);
        cleanup();
      }),
      { numRuns: 40 },
    );
  });

  it('given a multiple-choice answer, should show every picked option in the summary', () => {
    const qs = [{ question: 'Which?', multiSelect: true, options: ['Web app', 'Mobile app', 'Desktop app'].map((label) => ({ label })) }];
    const answers = [{ question: 'Which?', multiSelect: true, answer: qs[0].options }];
    render(<UserQuestionCard {...props(questionInterrupt(qs), { status: 'resolved', result: { answers } })} />);
    expect(screen.getByTestId('read-only-answer')).toHaveTextContent('Web app, Mobile app, Desktop app');
  });

  it('given a rejected approval with any reason, should show the tool and the whole reason', () => {
    fc.assert(
      fc.property(words, (reason) => {
        cleanup(); // a failed run leaves its card behind
        render(<ToolApprovalCard {...props(directApprovalInterrupt, { status: 'resolved', result: { approved: false, reason } })} />);
        expect(screen.getByTestId('read-only-answer').textContent).toBe(`delete_files — ${reason}`);
        cleanup();
      }),
      { numRuns: 30 },
    );
  });

  it('given a stored approval whose fields have the wrong types, should show the decision and its details without breaking', async () => {
    const user = userEvent.setup();
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.anything(), fc.anything(), async (approved, reason, editedArgs) => {
        cleanup();
        const result = { approved, reason, editedArgs };
        render(<ToolApprovalCard {...props(directApprovalInterrupt, { status: 'resolved', result })} />);
        expect(screen.getByTestId('approval-status')).toHaveTextContent(approved ? 'Approved' : 'Rejected');
        expect(screen.getByTestId('read-only-answer').textContent).toMatch(/^delete_files/);
        await user.click(screen.getByRole('button', { name: 'Details' }));
        expect(screen.getByTestId('read-only-details')).toHaveTextContent('delete_files');
        cleanup();
      }),
      { numRuns: 25 },
    );
  });

  it('given dates anywhere in an approval or a fallback interrupt, should show none as ISO text', async () => {
    await fc.assert(
      fc.asyncProperty(isoForms, isoForms, async (a, b) => {
        cleanup(); // a failed run leaves its card behind
        const approval = {
          ...directApprovalInterrupt,
          metadata: { toolName: 'schedule', arguments: { startAt: a, window: { from: a, to: b }, days: [a, b] } },
        };
        const edited = { startAt: b, window: { from: b, to: a }, days: [b] };
        for (const card of [
          <ToolApprovalCard key="p" {...props(approval)} />,
          <ToolApprovalCard key="r" {...props(approval, { status: 'resolved', result: { approved: true, editedArgs: edited } })} />,
          <FallbackInterruptCard key="f" {...props({ id: 'x', reason: 'acme:x', metadata: { at: a, nested: { list: [b] } } })} />,
          <FallbackInterruptCard
            key="fr"
            {...props({ id: 'x', reason: 'acme:x', metadata: { at: a } }, { status: 'resolved', result: {} })}
          />,
        ]) {
          const { container } = render(card);
          await openEverything(container);
          expect(container.textContent).not.toMatch(ISO);
          cleanup();
        }
      }),
      { numRuns: 25 },
    );
  });

  it('given a ticket submitted at an ISO-like time, should show it in the locale, in English and Chinese', () => {
    const raw = {
      id: 't',
      reason: InterruptReason.AIDevToolApproval,
      metadata: { ticket: { title: 'Review', sn: 'R-1', status: 'pending', submit_time: '2026-04-24 14:30:15' } },
    };
    const { container, unmount } = render(<ToolApprovalCard {...props(raw)} />);
    expect(container).toHaveTextContent(readableDateTime('2026-04-24 14:30:15', 'en')!);
    expect(container.textContent).not.toMatch(ISO);
    unmount();
    const zh = render(<ToolApprovalCard {...props(raw, zhCN)} />);
    expect(zh.container).toHaveTextContent(readableDateTime('2026-04-24 14:30:15', 'zh-CN')!);
    expect(zh.container.textContent).not.toMatch(ISO);
  });
});

describe('a pending approval shows what is being approved', { timeout: 30_000 }, () => {
  const value = fc.oneof(
    fc.integer({ min: -1000, max: 1000 }),
    fc.boolean(),
    words,
    fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
  );
  const names = fc.stringMatching(/^[a-z][a-zA-Z_]{0,15}$/);

  it('given any arguments, should show each one by name and value without a click, folding only long values', () => {
    fc.assert(
      fc.property(fc.dictionary(names, value, { minKeys: 1, maxKeys: 12 }), (args) => {
        cleanup(); // a failed run leaves its card behind
        const raw = { ...directApprovalInterrupt, metadata: { toolName: 'deploy_service', arguments: args } };
        render(<ToolApprovalCard {...props(raw)} />);
        const list = screen.getByTestId('approval-args');
        // The list itself is never behind a disclosure.
        expect(list.closest('details')).toBeNull();
        const rows = [...list.querySelectorAll('.cki-fields__row')];
        expect(rows.map((row) => row.querySelector('dt')!.textContent)).toEqual(Object.keys(args));
        for (const [i, [, v]] of Object.entries(args).entries()) {
          const shown = typeof v === 'string' ? v : JSON.stringify(v, null, 1).replace(/\n\s*/g, ' ');
          const dd = rows[i].querySelector('dd')!;
          const fold = dd.querySelector('details');
          if (shown.length <= 120) {
            expect(fold).toBeNull();
            expect(dd.textContent).toBe(shown);
          } else {
            // A long value: its start in view, all of it one click away inside the value.
            expect(fold).not.toBeNull();
            expect(fold!.querySelector('summary')!.textContent).toBe(shown.slice(0, 60).trimEnd() + '…');
            expect(fold!.querySelector('pre')!.textContent!.replace(/\s+/g, ' ')).toContain(shown.replace(/\s+/g, ' ').slice(0, 60).trim());
          }
        }
        cleanup();
      }),
      { numRuns: 60 },
    );
  });

  it('given the deploy call, should show replicas: 2 on the card before anything is clicked', () => {
    render(<ToolApprovalCard {...props(deployApprovalInterrupt)} />);
    const row = within(screen.getByTestId('approval-args')).getByText('replicas').closest('.cki-fields__row')!;
    expect(row).toHaveTextContent('replicas2');
    expect(screen.queryByRole('group', { name: 'Arguments' })).toBeNull();
  });

  it('given a LangGraph review, edit mode should offer no "Reason for rejecting" field, and Back should bring it back', async () => {
    render(
      <ToolApprovalCard
        {...props(langGraphReviewInterrupt({ allow_accept: true, allow_edit: true, allow_respond: true, allow_ignore: true }))}
      />,
    );
    expect(screen.getByLabelText('Reason for rejecting (optional)')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('approval-edit-open'));
    expect(screen.getByTestId('approval-edit')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Reason/)).toBeNull();
    expect(screen.getByTestId('approval-card')).not.toHaveTextContent(/Reason for rejecting/);
    await userEvent.click(screen.getByTestId('approval-edit-back'));
    expect(screen.getByLabelText('Reason for rejecting (optional)')).toBeInTheDocument();
  });

  it('given a reason that goes with any answer, edit mode should keep it on screen and send it with the edits', async () => {
    const p = props(deployApprovalInterrupt);
    render(<ToolApprovalCard {...p} />);
    await userEvent.type(screen.getByLabelText('Reason (optional)'), 'Peak traffic');
    await userEvent.click(screen.getByTestId('approval-edit-open'));
    // Nothing is sent that the user cannot see.
    expect(screen.getByLabelText('Reason (optional)')).toHaveValue('Peak traffic');
    expect(screen.queryByText(/Reason for rejecting/)).toBeNull();
    await userEvent.click(screen.getByTestId('approval-approve-edited'));
    expect(p.resolve).toHaveBeenCalledWith({
      approved: true,
      reason: 'Peak traffic',
      editedArgs: { service: 'api', replicas: 2, dryRun: false },
    });
  });
});

describe('focus after answering by keyboard', () => {
  const cases: Array<[string, ComponentType<any>, unknown, string, string]> = [
    ['TimePickerCard, a slot', TimePickerCard, timePickerInterrupt, 'Monday 9:00 AM', 'time-picker-picked'],
    ['TimePickerCard, none of these', TimePickerCard, timePickerInterrupt, 'None of these work', 'time-picker-cancelled'],
    ['ToolApprovalCard, approve', ToolApprovalCard, directApprovalInterrupt, 'Approve', 'approval-card-resolved'],
    ['ToolApprovalCard, reject', ToolApprovalCard, directApprovalInterrupt, 'Reject', 'approval-card-resolved'],
    ['ToolApprovalCard, dismiss', ToolApprovalCard, directApprovalInterrupt, 'Dismiss', 'approval-card-resolved'],
    ['UserQuestionCard, skip', UserQuestionCard, questionInterrupt(), 'Skip', 'user-question-skipped'],
    ['FallbackInterruptCard, continue', FallbackInterruptCard, { id: 'f', reason: 'acme:x' }, 'Continue', 'fallback-interrupt-card'],
    ['FallbackInterruptCard, dismiss', FallbackInterruptCard, { id: 'f', reason: 'acme:x' }, 'Dismiss', 'fallback-interrupt-card'],
  ];

  it.each(cases)('%s: should move focus to the answered card summary, not the page', async (_name, Card, raw, button, testId) => {
    render(<Card {...props(raw)} />);
    screen.getByRole('button', { name: button }).focus();
    await userEvent.keyboard('{Enter}');
    const summary = within(screen.getByTestId(testId)).getByTestId('read-only-answer').closest('.cki-summary');
    expect(document.activeElement).toBe(summary);
    expect(document.activeElement).not.toBe(document.body);
  });

  it('UserQuestionCard, submit: should move focus to the answered card summary', async () => {
    render(<UserQuestionCard {...props(questionInterrupt([{ header: 'Notes', question: 'Anything else?' }]))} />);
    await userEvent.type(screen.getByLabelText('Your answer'), 'No');
    screen.getByTestId('user-question-submit').focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByTestId('user-question-answered').querySelector('.cki-summary'));
  });

  it('given the answered card is drawn again elsewhere (its place in the transcript), should take the focus along', async () => {
    // The live slot draws the open card; once answered, the transcript draws it and the slot lets go.
    function Host() {
      const [answer, setAnswer] = useState<unknown>();
      const resolve = (payload: unknown) => setTimeout(() => setAnswer(payload), 0);
      return answer === undefined ? (
        <section aria-label="slot">
          <TimePickerCard {...props(timePickerInterrupt, { resolve })} />
        </section>
      ) : (
        <section aria-label="transcript">
          <TimePickerCard {...props(timePickerInterrupt, { status: 'resolved', result: answer })} />
        </section>
      );
    }
    render(<Host />);
    screen.getByRole('button', { name: 'Tomorrow 2:00 PM' }).focus();
    await userEvent.keyboard('{Enter}');
    await act(() => new Promise((done) => setTimeout(done, 5)));
    const transcript = screen.getByRole('region', { name: 'transcript' });
    expect(document.activeElement).toBe(transcript.querySelector('.cki-summary'));
    expect(transcript.querySelector('.cki-summary')).toHaveTextContent('Tomorrow 2:00 PM');
  });

  it('given another card of the same set still open, should move focus to that card', async () => {
    const second = mastraTimePicker({ topic: 'Follow-up', slots: SLOTS }, { id: 'second' });
    render(
      <div>
        <div data-interrupt-id="first">
          <ToolApprovalCard {...props(directApprovalInterrupt)} />
        </div>
        <div data-interrupt-id="second">
          <TimePickerCard {...props(second)} />
        </div>
      </div>,
    );
    screen.getByRole('button', { name: 'Approve' }).focus();
    await userEvent.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByTestId('time-picker-card'));
    // The next Tab reaches its first slot: the user answers it without a mouse.
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getAllByTestId('time-picker-slot')[0]);
  });

  it('given the user moved focus elsewhere before the card was drawn again, should leave it there', async () => {
    const outside = document.body.appendChild(document.createElement('button'));
    try {
      const p = props(timePickerInterrupt);
      const { unmount } = render(<TimePickerCard {...p} />);
      screen.getByRole('button', { name: 'Tomorrow 2:00 PM' }).focus();
      await userEvent.keyboard('{Enter}');
      unmount();
      outside.focus();
      render(<TimePickerCard {...props(timePickerInterrupt, { status: 'resolved', result: { chosen_time: SLOTS[1].iso } })} />);
      expect(document.activeElement).toBe(outside);
    } finally {
      outside.remove();
    }
  });
});
