import { isRecord } from '../../wire/guards';
import { nonEmptyText } from '../../wire/shapes';
import { DISMISSED_APPROVAL_REASON } from '../answers';
import type { HitlAction } from './request';

/** One decision of LangChain's `humanInTheLoopMiddleware` (`HITLResponse.decisions[i]`). */
export type HitlDecision =
  | { type: 'approve' }
  | { type: 'edit'; editedAction: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message?: string };

/** What the middleware's `interrupt()` reads back: one decision per action request, in order. */
export interface HitlResponse {
  decisions: HitlDecision[];
}

/** One answered card of a `HITLRequest`: the resume entry and what its signed id carries. */
export interface HitlAnswer {
  interruptId: string;
  status: string;
  payload?: unknown;
  action: HitlAction;
}

/**
 * The decision one card's answer is: `{approved: true}` -> approve, `{approved: true, editedArgs}`
 * -> edit with `editedAction: {name, args: editedArgs}`, `{approved: false, reason?}` -> reject
 * with the reason as its `message` (without one, the middleware's own message), a dismissal
 * (`cancelled`) -> reject saying the user dismissed it. A decision the action's `allowedDecisions`
 * does not take, or an answer that is none of these, is a `problem`: it is never delivered.
 */
export function hitlDecision(status: string, payload: unknown, action: HitlAction): { decision: HitlDecision } | { problem: string } {
  let decision: HitlDecision;
  const answer = isRecord(payload) ? payload : {};
  if (status === 'cancelled') decision = { type: 'reject', message: DISMISSED_APPROVAL_REASON };
  else if (status !== 'resolved') return { problem: `its status ${JSON.stringify(status)} is neither resolved nor cancelled` };
  else if (answer.approved === true && isRecord(answer.editedArgs)) {
    decision = { type: 'edit', editedAction: { name: action.name, args: answer.editedArgs } };
  } else if (answer.approved === true && answer.editedArgs === undefined) decision = { type: 'approve' };
  else if (answer.approved === false) {
    const message = nonEmptyText(answer.reason);
    decision = { type: 'reject', ...(message ? { message } : {}) };
  } else return { problem: 'it is not {approved: true or false, editedArgs?: an object, reason?}' };
  if (!action.allowed.includes(decision.type)) {
    const what = status === 'cancelled' ? 'a dismissal (a reject)' : `a decision of type ${decision.type}`;
    return { problem: `it is ${what}, which ${action.name} does not allow (allowed: ${action.allowed.join(', ')})` };
  }
  return { decision };
}

/**
 * The one `{decisions}` per LangGraph interrupt that the answers to its cards make, keyed by
 * LangGraph's interrupt id; or the first answer that cannot be delivered and why: a decision its
 * action does not allow, an answer that is not a card's, or a request not answered whole (the
 * middleware takes every decision at once, one per action request, in order).
 *
 * A request whose cards are all dismissed (the user sent a chat message instead: the client then
 * dismisses every open card) while one of its actions does not allow reject has no decisions to
 * give: it is in `leftOpen`, to stay open, rather than refused with the user's message.
 */
export function hitlResponses(
  answers: readonly (HitlAnswer & { langGraphId: string })[],
): { responses: Map<string, HitlResponse>; leftOpen: HitlAction[] } | { refused: { interruptId: string; problem: string } } {
  const groups = new Map<string, (HitlAnswer & { langGraphId: string })[]>();
  for (const answer of answers) groups.set(answer.langGraphId, [...(groups.get(answer.langGraphId) ?? []), answer]);
  const responses = new Map<string, HitlResponse>();
  const leftOpen: HitlAction[] = [];
  for (const [langGraphId, group] of groups) {
    const count = group[0].action.count;
    const cannotReject = group.find((answer) => !answer.action.allowed.includes('reject'));
    if (cannotReject && group.every((answer) => answer.status === 'cancelled')) {
      leftOpen.push(cannotReject.action);
      continue;
    }
    const decisions: (HitlDecision | undefined)[] = Array.from({ length: count }, () => undefined);
    for (const answer of group) {
      const { index } = answer.action;
      if (answer.action.count !== count || decisions[index] !== undefined) {
        return {
          refused: {
            interruptId: answer.interruptId,
            problem: 'it answers an action request that another answer in this resume answers too',
          },
        };
      }
      const read = hitlDecision(answer.status, answer.payload, answer.action);
      if ('problem' in read) return { refused: { interruptId: answer.interruptId, problem: read.problem } };
      decisions[index] = read.decision;
    }
    const missing = decisions.findIndex((d) => d === undefined);
    if (missing !== -1) {
      return {
        refused: {
          interruptId: group[0].interruptId,
          problem: `its request holds ${count} tool calls, answered together in one resume, and ${count - group.length} of them ${
            count - group.length === 1 ? 'has' : 'have'
          } no answer here (the first: number ${missing + 1})`,
        },
      };
    }
    responses.set(langGraphId, { decisions: decisions as HitlDecision[] });
  }
  return { responses, leftOpen };
}
