import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { TimePickerCard } from '../components/time-picker-card/time-picker-card';
import { CardHarness } from './support/card-harness';
import { fixedClock, FUTURE, LONG_TEXT, mastraTimePicker, PAST, SLOTS, timePickerInterrupt } from './support/fixtures';
import { zhCN } from '../src/i18n/locales/zh-CN';
import { readableDateTime } from '../src/i18n/date-time';
import { expectAnswerShownWhole, ISO_DATE_TIME } from './support/answer-checks';

const meta = {
  title: 'Cards/TimePickerCard',
  component: CardHarness,
  args: { card: TimePickerCard, interrupt: timePickerInterrupt, extra: { now: fixedClock }, onResolve: fn(), onCancel: fn() },
} satisfies Meta<typeof CardHarness>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Pending: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('time-picker-card');
    await expect(card).toHaveTextContent('Book a call');
    await expect(card).toHaveTextContent('With Alice');
    await expect(card).toHaveTextContent('Intro call with sales');
    await expect(card).toHaveTextContent('Pick a time that works for you.');
    const slots = canvas.getAllByTestId('time-picker-slot');
    await expect(slots.map((s) => s.textContent)).toEqual(SLOTS.map((s) => s.label));
    await expect(canvas.getByTestId('time-picker-cancel')).toHaveTextContent('None of these work');
  },
};

export const FallbackSlots: Story = {
  args: { interrupt: mastraTimePicker({ topic: 'Weekly sync' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const labels = (await canvas.findAllByTestId('time-picker-slot')).map((s) => s.textContent);
    await expect(labels).toEqual(['Tomorrow 10:00 AM', 'Tomorrow 2:00 PM', 'Monday 9:00 AM', 'Monday 3:30 PM']);
    await expect(canvas.queryByText(/^With /)).toBeNull();
  },
};

export const PickASlot: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Monday 9:00 AM' }));
    const picked = await canvas.findByTestId('time-picker-picked');
    await expect(picked).toHaveTextContent('Booked');
    await expect(within(picked).getByTestId('read-only-answer')).toHaveTextContent('Monday 9:00 AM');
    await expect(canvas.queryByTestId('time-picker-card')).toBeNull();
    await expect(args.onResolve).toHaveBeenCalledWith({ chosen_time: SLOTS[2].iso, chosen_label: 'Monday 9:00 AM' });
    await waitFor(() => expect(picked).not.toHaveTextContent('Sending…'));
  },
};

export const DoubleClickSubmitsOnce: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.dblClick(await canvas.findByRole('button', { name: 'Tomorrow 2:00 PM' }));
    await canvas.findByTestId('time-picker-picked');
    await expect(args.onResolve).toHaveBeenCalledTimes(1);
  },
};

export const NoneOfTheseWork: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByTestId('time-picker-cancel'));
    const cancelled = await canvas.findByTestId('time-picker-cancelled');
    await expect(cancelled).toHaveTextContent('Cancelled');
    await expect(cancelled).toHaveTextContent('No time picked.');
    await expect(args.onResolve).toHaveBeenCalledWith({ cancelled: true });
    await expect(args.onCancel).not.toHaveBeenCalled();
  },
};

export const KeyboardPick: Story = {
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await canvas.findByTestId('time-picker-card');
    await userEvent.tab();
    await expect(canvas.getAllByTestId('time-picker-slot')[0]).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await canvas.findByTestId('time-picker-picked');
    await expect(args.onResolve).toHaveBeenCalledWith({ chosen_time: SLOTS[0].iso, chosen_label: SLOTS[0].label });
    // The pressed button is gone; focus moves to the answer instead of falling to the page.
    await expect(canvasElement.querySelector('.cki-summary')).toHaveFocus();
  },
};

/**
 * Two cards the agent waits on together: answering the first by keyboard moves focus to the one
 * still open; answering that one leaves focus on its answer.
 */
export const SetOfTwoFocusMovesOn: Story = {
  render: (args) => (
    <div>
      <div data-interrupt-id="set-a">
        <CardHarness {...args} interrupt={mastraTimePicker({ topic: 'Intro call', slots: SLOTS }, { id: 'set-a' })} />
      </div>
      <div data-interrupt-id="set-b">
        <CardHarness {...args} interrupt={mastraTimePicker({ topic: 'Follow-up call', slots: SLOTS }, { id: 'set-b' })} />
      </div>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const [first, second] = await canvas.findAllByTestId('time-picker-card');
    within(first).getAllByTestId('time-picker-slot')[0].focus();
    await userEvent.keyboard('{Enter}');
    await canvas.findByTestId('time-picker-picked');
    await waitFor(() => expect(second).toHaveFocus());
    await userEvent.tab();
    await expect(within(second).getAllByTestId('time-picker-slot')[0]).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(canvas.getAllByTestId('time-picker-picked')).toHaveLength(2));
    await expect(canvasElement.querySelector('[data-interrupt-id="set-b"] .cki-summary')).toHaveFocus();
  },
};

export const Submitting: Story = {
  args: { settle: 'never' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Tomorrow 10:00 AM' }));
    const picked = await canvas.findByTestId('time-picker-picked');
    await expect(picked).toHaveTextContent('Sending…');
    await expect(canvas.getByRole('status')).toHaveTextContent('Booked: Tomorrow 10:00 AM');
  },
};

export const Resolved: Story = {
  args: { status: 'resolved', result: { chosen_time: SLOTS[3].iso, chosen_label: SLOTS[3].label } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picked = await canvas.findByTestId('time-picker-picked');
    await expect(picked).toHaveTextContent('Monday 3:30 PM');
    // Compact: nothing to answer, one disclosure, the details not rendered.
    const toggle = canvas.getByRole('button', { name: 'Details' });
    await expect(canvas.getAllByRole('button')).toEqual([toggle]);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(canvas.queryByTestId('read-only-details')).toBeNull();
  },
};

/** The read-only card with its details opened: who the meeting is with and the time as sent. */
export const ResolvedDetailsOpen: Story = {
  args: { status: 'resolved', result: { chosen_time: SLOTS[3].iso, chosen_label: SLOTS[3].label } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Details' }));
    await expect(canvas.getByRole('button', { name: 'Details' })).toHaveAttribute('aria-expanded', 'true');
    const details = canvas.getByTestId('read-only-details');
    await expect(details).toHaveTextContent('With Alice');
    // The time in the reader's locale, never the ISO text sent to the agent.
    await expect(details).toHaveTextContent(readableDateTime(SLOTS[3].iso, 'en')!);
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

/** A stored answer without its label (another version of the card): the offered slot's label. */
export const ResolvedWithoutLabel: Story = {
  args: { status: 'resolved', result: { chosen_time: SLOTS[1].iso } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picked = await canvas.findByTestId('time-picker-picked');
    await expectAnswerShownWhole(within(picked).getByTestId('read-only-answer'), 'Tomorrow 2:00 PM');
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

/** A booked time that was not among the offered slots: the date and time in the reader's locale. */
export const ResolvedUnofferedTime: Story = {
  args: { status: 'resolved', result: { chosen_time: '2026-12-05T14:00:00.000Z' } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picked = await canvas.findByTestId('time-picker-picked');
    await expectAnswerShownWhole(within(picked).getByTestId('read-only-answer'), readableDateTime('2026-12-05T14:00:00.000Z', 'en')!);
    await userEvent.click(canvas.getByRole('button', { name: 'Details' }));
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

/** A long slot label stays readable in the answered card: wrapped, not cut to a few letters. */
export const ResolvedLongLabel: Story = {
  args: {
    status: 'resolved',
    result: {
      chosen_time: SLOTS[0].iso,
      chosen_label: 'Tomorrow 10:00 AM (Pacific Daylight Time, room 4B, subject to the booking system)',
    },
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picked = await canvas.findByTestId('time-picker-picked');
    await expectAnswerShownWhole(
      within(picked).getByTestId('read-only-answer'),
      'Tomorrow 10:00 AM (Pacific Daylight Time, room 4B, subject to the booking system)',
    );
  },
};

/** Chinese: the booked time in the details reads as a Chinese date. */
export const ResolvedZhCN: Story = {
  args: { ...zhCN, status: 'resolved', result: { chosen_time: SLOTS[3].iso } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const picked = await canvas.findByTestId('time-picker-picked');
    await expect(picked).toHaveTextContent('已预约');
    await userEvent.click(canvas.getByRole('button', { name: '详情' }));
    await expect(canvas.getByTestId('read-only-details')).toHaveTextContent(readableDateTime(SLOTS[3].iso, 'zh-CN')!);
    await expect(canvasElement.textContent).not.toMatch(ISO_DATE_TIME);
  },
};

export const Cancelled: Story = {
  args: { status: 'resolved', result: { cancelled: true } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-cancelled')).toHaveTextContent('No time picked.');
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
  },
};

/** Steer-away: the user chatted on instead of picking; the agent got `cancelled`. */
export const Dismissed: Story = {
  args: { status: 'dismissed' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-cancelled')).toHaveTextContent('Dismissed');
    // Nothing left to answer: the one button is the details disclosure.
    await expect(canvas.getAllByRole('button')).toEqual([canvas.getByRole('button', { name: 'Details' })]);
  },
};

export const Countdown: Story = {
  args: { interrupt: { ...timePickerInterrupt, expiresAt: FUTURE } },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByRole('timer')).toHaveTextContent('Expires in 10:00');
  },
};

export const Expired: Story = {
  args: { interrupt: { ...timePickerInterrupt, expiresAt: PAST } },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-expired')).toHaveTextContent('Expired');
    await expect(canvas.queryAllByRole('button')).toHaveLength(0);
    await expect(args.onResolve).not.toHaveBeenCalled();
  },
};

export const ErrorState: Story = {
  name: 'Error',
  args: { failResume: true },
  play: async ({ canvasElement, args }) => {
    const canvas = within(canvasElement);
    await userEvent.click(await canvas.findByRole('button', { name: 'Monday 9:00 AM' }));
    await expect(await canvas.findByTestId('interrupt-error')).toHaveTextContent('Your answer could not be sent.');
    await userEvent.click(canvas.getByTestId('interrupt-retry'));
    await waitFor(() => expect(canvas.queryByTestId('interrupt-error')).toBeNull());
    await expect(args.onResolve).toHaveBeenCalledTimes(2);
    await expect(canvas.getByTestId('time-picker-picked')).toHaveTextContent('Monday 9:00 AM');
  },
};

export const ZhCN: Story = {
  args: { ...zhCN, interrupt: mastraTimePicker({ topic: '销售介绍会', attendee: '张三' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('time-picker-card');
    await expect(card).toHaveTextContent('预约通话');
    await expect(card).toHaveTextContent('参与人：张三');
    await expect(canvas.getAllByTestId('time-picker-slot')[0]).toHaveTextContent('明天 上午10:00');
    await userEvent.click(canvas.getByTestId('time-picker-cancel'));
    await expect(await canvas.findByTestId('time-picker-cancelled')).toHaveTextContent('未选择时间。');
  },
};

export const Dark: Story = {
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-card')).toBeVisible();
  },
};

export const VeryLongTexts: Story = {
  args: {
    interrupt: mastraTimePicker({
      topic: LONG_TEXT,
      attendee: 'Alexandria Ocasio-Montgomery-Fitzgerald of the Extended Platform Steering Committee',
      slots: SLOTS.map((s) => ({ ...s, label: `${s.label} (Pacific Daylight Time, subject to the room booking system)` })),
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-card')).toHaveTextContent(LONG_TEXT);
    await expect(canvas.getAllByTestId('time-picker-slot')).toHaveLength(4);
  },
};

export const HtmlInPayloadIsText: Story = {
  args: {
    interrupt: mastraTimePicker({
      topic: '<img src=x onerror="alert(1)">Hacked',
      slots: [{ label: '<b>bold</b>', iso: '2026-01-01T00:00:00Z' }],
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByText('<img src=x onerror="alert(1)">Hacked')).toBeInTheDocument();
    await expect(canvasElement.querySelector('img')).toBeNull();
    await expect(canvas.getByTestId('time-picker-slot')).toHaveTextContent('<b>bold</b>');
  },
};

export const BadPayload: Story = {
  args: { interrupt: mastraTimePicker({ topic: 'Broken', slots: 'tomorrow-ish' }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const card = await canvas.findByTestId('fallback-interrupt-card');
    await expect(card).toHaveTextContent('slots must be a list');
    await expect(canvas.queryByTestId('time-picker-card')).toBeNull();
  },
};

export const DarkBooked: Story = {
  args: { status: 'resolved', result: { chosen_time: SLOTS[0].iso, chosen_label: SLOTS[0].label } },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-picked')).toHaveTextContent('Booked');
  },
};

export const DarkExpired: Story = {
  args: { interrupt: { ...timePickerInterrupt, expiresAt: PAST } },
  parameters: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(await canvas.findByTestId('time-picker-expired')).toHaveTextContent('Expired');
  },
};
