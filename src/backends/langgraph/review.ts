/**
 * LangGraph review requests (agent-inbox's `HumanInterrupt`): how one reads as a direct-mode tool
 * approval, and the `langgraph-review::` id that carries what its answer needs.
 */
import { InterruptReason } from '../../protocol/constants';
import { isRecord } from '../../wire/guards';
import { mismatch, nonEmptyText } from '../../wire/shapes';
import { splitCarried, toBase64Url, utf8Json } from '../carry';
import type { Json } from '../types';

/** Prefix of the ids given to LangGraph review-config interrupts (agent-inbox's `HumanInterrupt`). */
export const LANGGRAPH_REVIEW_ID_PREFIX = 'langgraph-review::';

/**
 * What a review-config interrupt's answer needs and the graph allows: the action (an `edit`
 * response names it) and the `allow_*` flags of its `config`.
 */
export interface ReviewConfig {
  action: string;
  accept: boolean;
  edit: boolean;
  respond: boolean;
  ignore: boolean;
}

/** The review flags carried in an id, one letter each, in this order. */
const REVIEW_FLAGS = [
  ['accept', 'a'],
  ['edit', 'e'],
  ['respond', 'r'],
  ['ignore', 'i'],
] as const;

/**
 * `langgraph-review::<LangGraph's own id>::<base64url JSON of {a: action, c: flags}>`: everything
 * the resume needs to answer with LangGraph's `HumanResponse`, so the middleware stays stateless.
 */
export function langGraphReviewId(langGraphId: string, review: ReviewConfig): string {
  const flags = REVIEW_FLAGS.filter(([key]) => review[key])
    .map(([, letter]) => letter)
    .join('');
  return `${LANGGRAPH_REVIEW_ID_PREFIX}${langGraphId}::${toBase64Url(utf8Json({ a: review.action, c: flags }))}`;
}

/** A review id read back; one that does not decode is nobody's (`other`): its answer passes unchanged. Never throws. */
export function parseReviewId(id: unknown): { kind: 'langgraph-review'; langGraphId: string; review: ReviewConfig } | { kind: 'other' } {
  if (typeof id !== 'string' || !id.startsWith(LANGGRAPH_REVIEW_ID_PREFIX)) return { kind: 'other' };
  const { ownId: langGraphId, carried } = splitCarried(id.slice(LANGGRAPH_REVIEW_ID_PREFIX.length));
  const action = nonEmptyText(carried?.a);
  if (!action || typeof carried?.c !== 'string') return { kind: 'other' };
  const flags = carried.c;
  const review = { action } as ReviewConfig;
  for (const [key, letter] of REVIEW_FLAGS) review[key] = flags.includes(letter);
  return { kind: 'langgraph-review', langGraphId, review };
}

/** The `config` keys of a review request, and the key of the card's metadata each one sets. */
const REVIEW_CONFIG_KEYS = [
  ['allow_accept', 'accept', 'allowApprove'],
  ['allow_edit', 'edit', 'allowEdit'],
  ['allow_respond', 'respond', 'allowReject'],
  ['allow_ignore', 'ignore', 'allowDismiss'],
] as const;

/**
 * Whether a LangGraph interrupt value is a review request (agent-inbox's `HumanInterrupt`): an
 * object with `action_request`, or a list whose first item is one (the form agent-inbox asks for).
 */
export function isReviewRequest(value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  return isRecord(first) && 'action_request' in first;
}

/**
 * The direct-mode `aidev:tool_approval` interrupt for a LangGraph review request
 * `{action_request: {action, args}, config: {allow_accept, allow_edit, allow_respond,
 * allow_ignore}, description?}` (or a list of one): tool name = `action`, arguments = `args`,
 * message = `description`; each `allow_*` flag says whether the card offers Approve, Edit
 * arguments, Reject (with its reason as the graph's `response`) and Dismiss (`ignore`). The id
 * (`langgraph-review::…`) carries the action and the flags, so the resume can answer with
 * LangGraph's `HumanResponse`. When the value is not a usable review request, `problem` says why.
 */
export function fromLangGraphReview(langGraphId: string, value: unknown, extra: Json = {}): { interrupt: Json } | { problem: string } {
  const what = 'The LangGraph review request';
  let request = value;
  if (Array.isArray(value)) {
    if (value.length !== 1) {
      return { problem: `${what} lists ${value.length} requests; only a list of one can be answered (one HumanResponse goes back).` };
    }
    request = value[0];
  }
  if (!isRecord(request)) return { problem: mismatch(what, 'an object', request) };
  const actionRequest = request.action_request;
  if (!isRecord(actionRequest)) return { problem: mismatch(`${what}'s action_request`, 'an object', actionRequest) };
  const action = nonEmptyText(actionRequest.action);
  if (!action) return { problem: mismatch(`${what}'s action_request.action`, 'non-empty text', actionRequest.action) };
  if (!isRecord(actionRequest.args)) return { problem: mismatch(`${what}'s action_request.args`, 'an object', actionRequest.args) };
  const config = request.config;
  if (!isRecord(config)) {
    return {
      problem: `${mismatch(`${what}'s config`, 'an object', config)} Without it the card cannot know which answers the graph takes.`,
    };
  }
  const review = { action } as ReviewConfig;
  const allowed: Json = {};
  for (const [key, flag, metadataKey] of REVIEW_CONFIG_KEYS) {
    if (typeof config[key] !== 'boolean') return { problem: mismatch(`${what}'s config.${key}`, 'true or false', config[key]) };
    review[flag] = config[key] as boolean;
    allowed[metadataKey] = config[key];
  }
  if (!REVIEW_CONFIG_KEYS.some(([, flag]) => review[flag]))
    return { problem: `${what}'s config allows no answer: every allow_ flag is false.` };
  const message = nonEmptyText(request.description);
  return {
    interrupt: {
      id: langGraphReviewId(langGraphId, review),
      reason: InterruptReason.AIDevToolApproval,
      ...(message ? { message } : {}),
      metadata: {
        toolName: action,
        args: actionRequest.args,
        ...allowed,
        // A HumanResponse of type accept carries no text: the reason goes with Reject only.
        reasonOnlyOnReject: true,
        langgraph: { ...extra, raw: value },
      },
    },
  };
}
