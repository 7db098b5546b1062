/**
 * The LangChain `humanInTheLoopMiddleware` backend (a `createAgent` graph served through
 * @ag-ui/langgraph): a request (`HITLRequest`, see `fromHitlRequest`) becomes one direct-mode
 * `aidev:tool_approval` per action request, ids `langgraph-hitl::…`; the answers to its cards
 * reach the middleware together as its one `{decisions}`, in order (see `hitlResponses`). An
 * answer its tool call does not allow, or a request answered in part, is refused
 * (`answer_not_allowed`) before the run.
 */
import { ResumeRefusal } from '../../protocol/constants';
import { quoteId } from '../answers';
import { checkOpenLangGraphAnswers } from '../langgraph-open';
import {
  NO_LANGGRAPH_INTERRUPT,
  langGraphAnswer,
  langGraphRaiseOf,
  langGraphRaiseOfEvent,
  shownAsPlain,
  type LangGraphRaise,
} from '../langgraph-wire';
import type { Answer, CommandAnswer, InterruptBackend, Json, Refusal, Report } from '../types';
import { hitlResponses, type HitlAnswer } from './decisions';
import { LANGGRAPH_HITL_ID_PREFIX, fromHitlRequest, isHitlRequest, parseHitlId } from './request';

/** The cards of a LangGraph raise that is a `HITLRequest` (plain, with its problem, when it cannot be read); undefined for any other value. */
function fromRaise(raise: LangGraphRaise | undefined, report: Report): Json[] | undefined {
  if (!raise || !isHitlRequest(raise.value)) return undefined;
  const read = fromHitlRequest(raise.langGraphId, raise.value, raise.extra);
  return 'interrupts' in read ? read.interrupts : shownAsPlain(raise, read.problem, report);
}

/** The answers whose id reads back, with what each id carries. */
function hitlAnswers(answers: readonly Answer[]): (HitlAnswer & { langGraphId: string })[] {
  return answers.flatMap((answer) => {
    const parsed = parseHitlId(answer.interruptId);
    return parsed.kind === 'langgraph-hitl' ? [{ ...answer, action: parsed.action, langGraphId: parsed.langGraphId }] : [];
  });
}

/**
 * The refusal of a resume whose answers cannot be delivered as the request's `{decisions}` (see
 * `hitlResponses`): a decision the action does not allow, or a request not answered whole.
 */
function notAllowed(answers: readonly Answer[]): Refusal | undefined {
  const read = hitlAnswers(answers);
  if (read.length === 0) return undefined;
  const built = hitlResponses(read);
  if ('responses' in built) return undefined;
  return {
    code: ResumeRefusal.AnswerNotAllowed,
    message: `The answer to interrupt ${quoteId(built.refused.interruptId)} was refused (${ResumeRefusal.AnswerNotAllowed}): ${built.refused.problem}. The agent did not receive it.`,
  };
}

export const langChainHitlBackend: InterruptBackend = {
  name: 'LangChain humanInTheLoopMiddleware',
  idPrefixes: [LANGGRAPH_HITL_ID_PREFIX],
  fromInterrupt: (interrupt, { report }) => fromRaise(langGraphRaiseOf(interrupt), report),
  fromEvent: (event, { report }) => fromRaise(langGraphRaiseOfEvent(event), report),
  checkResume(answers, context) {
    const refused = notAllowed(answers);
    if (refused) return { refused };
    return checkOpenLangGraphAnswers(
      answers,
      context,
      (answer) => {
        const parsed = parseHitlId(answer.interruptId);
        return parsed.kind === 'langgraph-hitl' ? parsed.langGraphId : undefined;
      },
      (answer, value, langGraphId) => {
        const parsed = parseHitlId(answer.interruptId);
        const read = isHitlRequest(value) ? fromHitlRequest(langGraphId, value) : undefined;
        const cards = read && 'interrupts' in read ? read.interrupts : [];
        // A request that now holds another number of tool calls is another request, whatever its cards show.
        return parsed.kind === 'langgraph-hitl' && cards.length === parsed.action.count ? cards[parsed.action.index] : undefined;
      },
    );
  },
  toResume(answers, { report }) {
    const read = hitlAnswers(answers);
    // An id that does not read back is nobody's: it passes unchanged.
    const resume = answers.filter((answer) => parseHitlId(answer.interruptId).kind !== 'langgraph-hitl');
    // Checked before the run (checkResume): every request here is answered whole and as it allows.
    const built = hitlResponses(read);
    const command: CommandAnswer[] = [];
    if ('responses' in built) {
      for (const [langGraphId, response] of built.responses) command.push(langGraphAnswer(langGraphId, 'resolved', response));
      if (built.leftOpen.length > 0) {
        report(
          `Every card of a humanInTheLoopMiddleware request was dismissed, but ${built.leftOpen[0].name} does not allow reject, so the request has no decisions to give; it stays open.`,
          read,
        );
        // Addressed to no interrupt, so the resume stays a map that reaches no node.
        command.push(langGraphAnswer(NO_LANGGRAPH_INTERRUPT, 'resolved', null));
      }
    }
    return { command, resume };
  },
};
