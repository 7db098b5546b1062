/** Wording the backends share when they translate an answer for their agent. Imports no backend. */

/** What a dismissed approval tells the agent (a Mastra native approval, a humanInTheLoopMiddleware reject). */
export const DISMISSED_APPROVAL_REASON = 'The user dismissed the approval request.';

/** An id for a message: long ids (a legacy id carries its event) are cut. */
export const quoteId = (id: string) => JSON.stringify(id.length > 120 ? `${id.slice(0, 60)}…${id.slice(-40)}` : id);
