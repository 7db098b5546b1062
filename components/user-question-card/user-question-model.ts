import type { UserQuestionAnswerItem, UserQuestionItem, UserQuestionOptionItem } from '../../src/protocol/index';

/** The label of the free-input option every choice question gets (the protocol's `others`). */
export const OTHERS_LABEL = 'others';

/** What the user has entered for one question so far. */
export interface QuestionDraft {
  /**
   * Picked options by key: an option's position in `question.options` as text, or `others`.
   * Not by label: two options may share one (with different descriptions), and picking one must
   * not pick both.
   */
  selected: string[];
  /** The Others text field. */
  othersText: string;
  /** The answer of a free-text question. */
  text: string;
}

export const EMPTY_DRAFT: QuestionDraft = { selected: [], othersText: '', text: '' };

/** A question the user answers by picking from its options. */
export type ChoiceQuestion = UserQuestionItem & { options: UserQuestionOptionItem[] };

/** A question with options is a choice question; one without is answered in free text. */
export const isChoiceQuestion = (q: UserQuestionItem): q is ChoiceQuestion => Array.isArray(q.options) && q.options.length > 0;

function item(question: UserQuestionItem, answer: UserQuestionOptionItem[]): UserQuestionAnswerItem {
  return question.multiSelect === undefined
    ? { question: question.question, answer }
    : { question: question.question, multiSelect: question.multiSelect, answer };
}

/**
 * The answer a draft makes, or `undefined` while it is not a valid answer yet (nothing picked,
 * or Others picked with empty text). Options keep the order the agent sent them in.
 */
export function answerFromDraft(question: UserQuestionItem, draft: QuestionDraft): UserQuestionAnswerItem | undefined {
  if (!isChoiceQuestion(question)) {
    const text = draft.text.trim();
    return text ? item(question, [{ label: OTHERS_LABEL, description: text }]) : undefined;
  }
  const picked = question.options.filter((o, i) => draft.selected.includes(optionKey(i)) && o.label !== OTHERS_LABEL);
  if (draft.selected.includes(OTHERS_LABEL)) {
    const text = draft.othersText.trim();
    if (!text) return undefined;
    picked.push({ label: OTHERS_LABEL, description: text });
  }
  return picked.length > 0 ? item(question, picked) : undefined;
}

/** The key a draft picks an option by: its position in `question.options`. */
export const optionKey = (index: number) => String(index);

/** Applies a click on an option (its key): single choice replaces, multiple choice toggles. */
export function toggleOption(question: UserQuestionItem, draft: QuestionDraft, key: string): QuestionDraft {
  if (question.multiSelect === true) {
    const selected = draft.selected.includes(key) ? draft.selected.filter((k) => k !== key) : [...draft.selected, key];
    return { ...draft, selected };
  }
  return { ...draft, selected: [key] };
}
