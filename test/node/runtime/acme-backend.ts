import type { InterruptBackend } from '../../../src/runtime';

/**
 * A backend of an agent that holds a deploy gate: it finishes a run with the interrupt
 * `{id, reason: 'acme:gate', metadata: {acme: {action, params}}}` and reads the answer from AG-UI's
 * `resume` as `{interruptId: <its own id>, payload: {verdict: 'go' | 'stop', note?}}`.
 */
export const ACME_PREFIX = 'acme::';

export const acmeBackend: InterruptBackend = {
  name: 'Acme deploy gate',
  // Ids that start with this are signed for the thread and come back to this backend only.
  idPrefixes: [ACME_PREFIX],
  // The gate, as the approval card reads it (a direct-mode tool approval).
  fromInterrupt(interrupt) {
    const metadata = interrupt.metadata as { acme?: { action?: unknown; params?: unknown } } | undefined;
    if (interrupt.reason !== 'acme:gate' || typeof metadata?.acme?.action !== 'string') return undefined;
    return [
      {
        id: `${ACME_PREFIX}${String(interrupt.id)}`,
        reason: 'aidev:tool_approval',
        message: `Allow ${metadata.acme.action}?`,
        metadata: { toolName: metadata.acme.action, args: metadata.acme.params ?? {}, allowEdit: false },
      },
    ];
  },
  // The card's {approved, reason?} (or a dismissal) as the verdict the agent reads.
  toResume(answers) {
    return {
      resume: answers.map(({ interruptId, status, payload }) => {
        const answer = (payload ?? {}) as { approved?: unknown; reason?: unknown };
        const go = status === 'resolved' && answer.approved === true;
        const note = typeof answer.reason === 'string' ? { note: answer.reason } : {};
        return {
          interruptId: interruptId.slice(ACME_PREFIX.length),
          status: 'resolved',
          payload: { verdict: go ? 'go' : 'stop', ...note },
        };
      }),
    };
  },
};
