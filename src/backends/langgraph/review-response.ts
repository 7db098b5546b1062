import { isRecord } from '../../wire/guards';
import { nonEmptyText } from '../../wire/shapes';
import type { ReviewConfig } from './review';

/** LangGraph's answer to a review request (agent-inbox's `HumanResponse`). */
export type HumanResponse =
  | { type: 'accept'; args: null }
  | { type: 'edit'; args: { action: string; args: Record<string, unknown> } }
  | { type: 'response'; args: string }
  | { type: 'ignore'; args: null };

/** What the graph's `response` says when the user rejected without writing a reason. */
export const REJECTED_WITHOUT_REASON = 'The user rejected this action.';

const CONFIG_KEY = { accept: 'allow_accept', edit: 'allow_edit', response: 'allow_respond', ignore: 'allow_ignore' } as const;
const ALLOWED = { accept: 'accept', edit: 'edit', response: 'respond', ignore: 'ignore' } as const;

/**
 * The `HumanResponse` list a LangGraph review request gets for one card answer (the list of one
 * agent-inbox sends): `{approved: true}` -> accept, `{approved: true, editedArgs}` -> edit with the
 * action and the edited arguments, `{approved: false, reason?}` -> response with the reason (or
 * {@link REJECTED_WITHOUT_REASON}), a dismissal -> ignore. An answer the request's config does not
 * allow (only a forged or outdated client sends one) becomes ignore, and `problem` says so: the
 * graph never runs an action on an answer it did not ask for.
 */
export function reviewResponse(status: string, payload: unknown, review: ReviewConfig): { response: [HumanResponse]; problem?: string } {
  const ignore: [HumanResponse] = [{ type: 'ignore', args: null }];
  if (status === 'cancelled') {
    return review.ignore
      ? { response: ignore }
      : {
          response: ignore,
          problem: `A LangGraph review request of ${review.action} whose config does not allow ignore was dismissed; the graph gets ignore, the only answer a dismissal has.`,
        };
  }
  const answer = isRecord(payload) ? payload : {};
  let response: HumanResponse;
  if (answer.approved === true && isRecord(answer.editedArgs)) {
    response = { type: 'edit', args: { action: review.action, args: answer.editedArgs } };
  } else if (answer.approved === true) response = { type: 'accept', args: null };
  else if (answer.approved === false) response = { type: 'response', args: nonEmptyText(answer.reason) ?? REJECTED_WITHOUT_REASON };
  else {
    return {
      response: ignore,
      problem: `An answer to a LangGraph review request of ${review.action} is not {approved, editedArgs?, reason?}; the graph gets ignore instead.`,
    };
  }
  if (review[ALLOWED[response.type]]) return { response: [response] };
  return {
    response: ignore,
    problem: `The answer ${response.type} to a LangGraph review request of ${review.action} is not allowed by its config (${CONFIG_KEY[response.type]} is false); the graph gets ignore instead.`,
  };
}
