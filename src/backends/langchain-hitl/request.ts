/**
 * LangChain `humanInTheLoopMiddleware` requests (`HITLRequest`): how one reads as one direct-mode
 * tool approval per action request, and the `langgraph-hitl::` id that carries each card's place.
 */
import { InterruptReason } from '../../protocol/constants';
import { isRecord } from '../../wire/guards';
import { preview } from '../../wire/json';
import { mismatch, nonEmptyText, objectOrJson } from '../../wire/shapes';
import { splitCarried, toBase64Url, utf8Json } from '../carry';
import type { Json } from '../types';

/** Prefix of the ids given to the cards of a LangChain `humanInTheLoopMiddleware` request (`HITLRequest`). */
export const LANGGRAPH_HITL_ID_PREFIX = 'langgraph-hitl::';

/** The decisions LangChain's `humanInTheLoopMiddleware` takes, and the letter an id carries for each. */
export const HITL_DECISIONS = [
  ['approve', 'a'],
  ['edit', 'e'],
  ['reject', 'r'],
] as const;
export type HitlDecisionType = (typeof HITL_DECISIONS)[number][0];

/**
 * One action request of a `HITLRequest` as its card's id carries it: which of the `count` action
 * requests it is (`index`, from 0), the tool's name (an edit names it) and the decisions allowed.
 */
export interface HitlAction {
  index: number;
  count: number;
  name: string;
  allowed: HitlDecisionType[];
}

/**
 * `langgraph-hitl::<LangGraph's own id>::<base64url JSON of {i, n, a, d}>`: everything the resume
 * needs to put this card's decision at its place in the one `{decisions}` the middleware reads.
 */
export function langGraphHitlId(langGraphId: string, action: HitlAction): string {
  const letters = HITL_DECISIONS.filter(([type]) => action.allowed.includes(type))
    .map(([, letter]) => letter)
    .join('');
  return `${LANGGRAPH_HITL_ID_PREFIX}${langGraphId}::${toBase64Url(utf8Json({ i: action.index, n: action.count, a: action.name, d: letters }))}`;
}

/** A `langgraph-hitl::` id read back; one that does not decode is nobody's (`other`). Never throws. */
export function parseHitlId(id: unknown): { kind: 'langgraph-hitl'; langGraphId: string; action: HitlAction } | { kind: 'other' } {
  if (typeof id !== 'string' || !id.startsWith(LANGGRAPH_HITL_ID_PREFIX)) return { kind: 'other' };
  const { ownId: langGraphId, carried } = splitCarried(id.slice(LANGGRAPH_HITL_ID_PREFIX.length));
  const name = nonEmptyText(carried?.a);
  const { i: index, n: count, d: letters } = carried ?? {};
  if (!name || typeof letters !== 'string' || !Number.isSafeInteger(count) || !Number.isSafeInteger(index)) return { kind: 'other' };
  if ((index as number) < 0 || (index as number) >= (count as number)) return { kind: 'other' };
  const allowed = HITL_DECISIONS.filter(([, letter]) => letters.includes(letter)).map(([type]) => type);
  return { kind: 'langgraph-hitl', langGraphId, action: { index: index as number, count: count as number, name, allowed } };
}

/**
 * Whether a LangGraph interrupt value is a request of LangChain's `humanInTheLoopMiddleware`
 * (`HITLRequest`): an object with the lists `actionRequests` and `reviewConfigs`.
 */
export function isHitlRequest(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.actionRequests) && Array.isArray(value.reviewConfigs);
}

/**
 * The direct-mode `aidev:tool_approval` interrupts, one per action request, for a `HITLRequest`
 * `{actionRequests: [{name, args, description?}], reviewConfigs: [{actionName, allowedDecisions,
 * argsSchema?}]}` of LangChain's `humanInTheLoopMiddleware`: tool name = `name`, arguments =
 * `args`, message = `description`, `metadata.argsSchema` = the review config's `argsSchema`; the
 * card offers Approve only where `approve` is allowed, Edit arguments only where `edit` is, Reject
 * (with its reason as the decision's `message`) and Dismiss (a reject) only where `reject` is. Each
 * id (`langgraph-hitl::…`) carries its place in the request and what it allows, so the resume can
 * build the one `{decisions}` the middleware reads. When the value is not usable, `problem` says why.
 */
export function fromHitlRequest(langGraphId: string, value: unknown, extra: Json = {}): { interrupts: Json[] } | { problem: string } {
  const what = 'The LangChain humanInTheLoopMiddleware request';
  if (!isRecord(value)) return { problem: mismatch(what, 'an object', value) };
  const { actionRequests, reviewConfigs } = value;
  if (!Array.isArray(actionRequests) || actionRequests.length === 0) {
    return { problem: mismatch(`${what}'s actionRequests`, 'a list of at least one', actionRequests) };
  }
  if (!Array.isArray(reviewConfigs)) return { problem: mismatch(`${what}'s reviewConfigs`, 'a list', reviewConfigs) };
  const interrupts: Json[] = [];
  for (const [index, request] of actionRequests.entries()) {
    const at = `${what}'s actionRequests[${index}]`;
    if (!isRecord(request)) return { problem: mismatch(at, 'an object', request) };
    const name = nonEmptyText(request.name);
    if (!name) return { problem: mismatch(`${at}.name`, 'non-empty text', request.name) };
    if (!isRecord(request.args)) return { problem: mismatch(`${at}.args`, 'an object', request.args) };
    // The middleware lists one review config per tool name (the same tool may be called twice).
    const config = reviewConfigs.find((c) => isRecord(c) && c.actionName === name);
    if (!isRecord(config)) {
      return {
        problem: `${what} has no review config for ${preview(name)}; without it the card cannot know which decisions the agent takes.`,
      };
    }
    const decisions = config.allowedDecisions;
    if (!Array.isArray(decisions) || decisions.some((d) => !HITL_DECISIONS.some(([type]) => type === d))) {
      return { problem: mismatch(`${what}'s allowedDecisions for ${preview(name)}`, 'a list of approve, edit and reject', decisions) };
    }
    const allowed = HITL_DECISIONS.map(([type]) => type).filter((type) => decisions.includes(type));
    if (allowed.length === 0) return { problem: `${what}'s allowedDecisions for ${preview(name)} allows no decision.` };
    const argsSchema = objectOrJson(config.argsSchema);
    const message = readableDescription(request.description, name, request.args);
    interrupts.push({
      id: langGraphHitlId(langGraphId, { index, count: actionRequests.length, name, allowed }),
      reason: InterruptReason.AIDevToolApproval,
      ...(message ? { message } : {}),
      metadata: {
        toolName: name,
        args: request.args,
        ...(argsSchema ? { argsSchema } : {}),
        allowApprove: allowed.includes('approve'),
        allowEdit: allowed.includes('edit'),
        allowReject: allowed.includes('reject'),
        // A dismissal reaches the agent as a reject.
        allowDismiss: allowed.includes('reject'),
        // An approve decision carries no text: the reason goes with Reject only.
        reasonOnlyOnReject: true,
        langgraph: { ...extra, raw: value, index, count: actionRequests.length },
      },
    });
  }
  return { interrupts };
}

/**
 * The card's title from an action request's description. Without a `description` of its own, the
 * middleware writes `<descriptionPrefix>\n\nTool: <name>\nArgs: <the arguments as JSON>`: the
 * card shows the tool and its arguments itself, so the title is the prefix alone, never raw JSON.
 */
function readableDescription(description: unknown, name: string, args: Json): string | undefined {
  const text = nonEmptyText(description);
  if (!text) return undefined;
  let generated: string | undefined;
  try {
    generated = `\n\nTool: ${name}\nArgs: ${JSON.stringify(args, null, 2)}`;
  } catch {
    generated = undefined;
  }
  return generated && text.endsWith(generated) ? nonEmptyText(text.slice(0, -generated.length).trim()) : text;
}
