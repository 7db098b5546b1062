import { expect } from 'storybook/test';

/** An ISO 8601 date-time as an agent sends it (`2026-12-05T14:00:00.000Z`, `2026-04-24 14:30:15`). */
export const ISO_DATE_TIME = /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

/** A moderately long answer: several lines in a chat-wide card, well within what the summary shows. */
export const LONG_ANSWER =
  'Web app first, then the mobile clients once the payment API is stable; keep the admin console read-only until the audit ends.';

/**
 * The answered card's summary shows `text` whole: in the text, visible, and (in a real browser,
 * where there is layout) neither cut by an ellipsis nor clipped. In jsdom the sizes are all 0.
 */
export async function expectAnswerShownWhole(answer: HTMLElement, text: string) {
  await expect(answer).toHaveTextContent(text);
  await expect(answer).toBeVisible();
  await expect(answer.scrollWidth).toBeLessThanOrEqual(answer.clientWidth);
  await expect(answer.scrollHeight).toBeLessThanOrEqual(answer.clientHeight + 1);
}
