/**
 * The LangGraph backend (@ag-ui/langgraph, either agent setting): every interrupt gets the id
 * `langgraph::<LangGraph's interrupt id>`, and a value `{reason, metadata, message?}` is lifted
 * (a plain-string value becomes the `message`); a review request (agent-inbox's `HumanInterrupt`)
 * becomes a direct-mode `aidev:tool_approval` with the id `langgraph-review::…`.
 *
 * A resume becomes LangGraph's own resume map `Command({resume: {[interruptId]: value}})`, also
 * for one answer, so every node gets its own answer, an interrupt left unanswered stays open; a
 * cancel reaches the node as the bridge's `{__agui_cancelled__: true, interrupt_id}`, a review's
 * answer as LangGraph's `HumanResponse` list (see `reviewResponse`). Before the run, the answers are
 * checked against the thread's open interrupts (see `checkOpenLangGraphAnswers`).
 */
import { nonEmptyText } from '../../wire/shapes';
import { checkOpenLangGraphAnswers } from '../langgraph-open';
import { LANGGRAPH_INTERRUPT_ID_PREFIX } from '../../wire/ids';
import {
  fromLangGraphValue,
  langGraphAnswer,
  langGraphRaiseOf,
  langGraphRaiseOfEvent,
  liftedPlain,
  shownAsPlain,
  type LangGraphRaise,
} from '../langgraph-wire';
import type { Answer, CommandAnswer, InterruptBackend, Json, Report } from '../types';
import { LANGGRAPH_REVIEW_ID_PREFIX, fromLangGraphReview, isReviewRequest, parseReviewId } from './review';
import { reviewResponse } from './review-response';

/** A `langgraph::` id read back: LangGraph's own id, or undefined. */
export function parseLangGraphId(id: unknown): string | undefined {
  return typeof id === 'string' && id.startsWith(LANGGRAPH_INTERRUPT_ID_PREFIX)
    ? nonEmptyText(id.slice(LANGGRAPH_INTERRUPT_ID_PREFIX.length))
    : undefined;
}

/** The interrupts for a LangGraph raise: a review request's approval (plain, with its problem, when it cannot be read), else the plain interrupt, lifted. */
function fromRaise(raise: LangGraphRaise, report: Report): Json[] {
  if (!isReviewRequest(raise.value)) return liftedPlain(raise);
  const review = fromLangGraphReview(raise.langGraphId, raise.value, raise.extra);
  return 'interrupt' in review ? [review.interrupt] : shownAsPlain(raise, review.problem, report);
}

/** LangGraph's own id of an answer of ours. */
function langGraphIdOf(answer: Answer): string | undefined {
  const review = parseReviewId(answer.interruptId);
  return review.kind === 'langgraph-review' ? review.langGraphId : parseLangGraphId(answer.interruptId);
}

export const langGraphBackend: InterruptBackend = {
  name: 'LangGraph',
  idPrefixes: [LANGGRAPH_REVIEW_ID_PREFIX, LANGGRAPH_INTERRUPT_ID_PREFIX],
  fromInterrupt(interrupt, { report }) {
    const raise = langGraphRaiseOf(interrupt);
    return raise && fromRaise(raise, report);
  },
  fromEvent(event, { report }) {
    const raise = langGraphRaiseOfEvent(event);
    return raise && fromRaise(raise, report);
  },
  checkResume(answers, context) {
    return checkOpenLangGraphAnswers(
      answers,
      context,
      langGraphIdOf,
      (_answer, value, langGraphId) =>
        fromRaise({ langGraphId, value, extra: {}, plain: () => fromLangGraphValue(langGraphId, value, {}) }, () => undefined)[0],
    );
  },
  toResume(answers, { report }) {
    const command: CommandAnswer[] = [];
    const resume: unknown[] = [];
    for (const answer of answers) {
      const review = parseReviewId(answer.interruptId);
      const langGraphId = parseLangGraphId(answer.interruptId);
      if (review.kind === 'langgraph-review') {
        // The card's {approved, editedArgs?, reason?} or a dismissal, as the HumanResponse list the graph reads.
        const { response, problem } = reviewResponse(answer.status, answer.payload, review.review);
        if (problem) report(problem, answer);
        command.push(langGraphAnswer(review.langGraphId, 'resolved', response));
      } else if (langGraphId !== undefined) command.push(langGraphAnswer(langGraphId, answer.status, answer.payload));
      // An id that does not read back is nobody's: it passes unchanged.
      else resume.push(answer);
    }
    return { command, resume };
  },
};
