import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { answeredNow, installDoubleClickGuard } from '../../../components/host/double-click-guard';

/** A button whose clicks are counted; `answers` makes a click answer a card, as a card's button does. */
function button(answers = false) {
  const element = document.createElement('button');
  const clicks = vi.fn(() => {
    if (answers) answeredNow();
  });
  element.addEventListener('click', clicks);
  document.body.append(element);
  return { element, clicks };
}

/** A pointer click as the browser dispatches it: `detail` counts the clicks of one multi-click. */
const click = (element: HTMLElement, detail: number, at = { clientX: 100, clientY: 100 }) =>
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail, ...at }));

beforeAll(installDoubleClickGuard);
afterEach(async () => {
  document.body.replaceChildren();
  // The guard forgets a click once its task is over.
  await new Promise((resolve) => setTimeout(resolve));
  click(document.body, 1);
});

describe('the double-click guard', () => {
  describe('given a click that answered a card', () => {
    it('should swallow the rest of that double click wherever it lands (a sibling card, a suggestion)', () => {
      const approve = button(true);
      const sibling = button(true);
      click(approve.element, 1);
      const delivered = click(sibling.element, 2);
      expect(approve.clicks).toHaveBeenCalledTimes(1);
      expect(sibling.clicks).not.toHaveBeenCalled();
      expect(delivered).toBe(false);
    });

    it('should swallow every further click of a triple click too', () => {
      const approve = button(true);
      const chip = button();
      click(approve.element, 1);
      click(chip.element, 2);
      click(chip.element, 3);
      expect(chip.clicks).not.toHaveBeenCalled();
    });

    it('should let the next click through when it starts a new sequence', () => {
      const approve = button(true);
      const chip = button();
      click(approve.element, 1);
      click(chip.element, 1);
      click(chip.element, 2);
      expect(chip.clicks).toHaveBeenCalledTimes(2);
    });
  });

  describe('given a click that answered a card, then a counted click somewhere else', () => {
    it('should let it through: only the same spot is the same gesture', () => {
      const approve = button(true);
      const other = button();
      click(approve.element, 1);
      click(other.element, 2, { clientX: 300, clientY: 100 });
      expect(other.clicks).toHaveBeenCalledTimes(1);
    });
  });

  describe('given a click that answered nothing', () => {
    it('should let its double click through, as the page expects', () => {
      const option = button();
      click(option.element, 1);
      click(option.element, 2);
      expect(option.clicks).toHaveBeenCalledTimes(2);
    });
  });

  describe('given an answer from the keyboard', () => {
    it("should arm nothing: the next pointer click is the user's own", () => {
      const approve = button(true);
      const chip = button();
      click(approve.element, 0);
      click(chip.element, 2);
      expect(chip.clicks).toHaveBeenCalledTimes(1);
    });
  });
});
