import type { ComponentType } from 'react';
import type { AIDevToolApprovalInterruptPayloadMetaData, AnyInterruptResume, OnInterruptResume } from '../src/protocol';
import type { InterruptLocale } from '../src/i18n/locale';
import type { InterruptStatus } from '../src/session/status';
import type { UnwrappedInterrupt } from '../src/unwrap';

export type ApprovalTicket = AIDevToolApprovalInterruptPayloadMetaData['ticket'];

/**
 * Props every interrupt renderer receives. A card is controlled by them: its read-only state is
 * derived from `status` and `result`, never stored on its own.
 */
export interface InterruptRendererProps<TResult = unknown> {
  interrupt: UnwrappedInterrupt;
  /** Where the interrupt stands; see `InterruptStatus`. A card derives its body from it. */
  status: InterruptStatus;
  /** The payload the user resolved with (also for echoes restored from history). */
  result?: TResult;
  /** Why the card is in `error` (the resume failed, or could not be sent). */
  error?: string;
  /** Answer the interrupt: the card turns read-only at once; the agent resumes once that is painted. */
  resolve: (payload: TResult) => void;
  /** Dismiss the interrupt without an answer (AG-UI `cancelled`). */
  cancel: () => void;
  /**
   * Set only in `error`, when sending the same answer again can work: absent in every other
   * status, when there is nothing to resend (a sibling interrupt expired, the interrupt was no
   * longer open, a record restored from history) and while another answer is on its way. Show a
   * Retry button only when this is set, and show `error` either way.
   */
  retry?: () => void;
  /** True unless `status` is `pending`. */
  readOnly: boolean;
  locale: InterruptLocale;
  /** Label overrides merged over English, or a whole table such as `zhCN.labels` for `locale: 'zh-CN'`. */
  labels?: Readonly<Record<string, string>>;
  /**
   * The app's callback for card operations (approval cancel / refresh; `approval_refresh` may
   * return the updated ticket, or `{ticket}`).
   */
  onInterruptResume?: OnInterruptResume<AnyInterruptResume, unknown>;
  /** "Always allow <tool> in this conversation", when the app offers it (`allowAlways`). */
  toolGrants?: ToolGrants;
}

/**
 * The tools a conversation always allows, for approval cards. Given to renderers only when the
 * app opts in with `useInterruptRenderers({ allowAlways })`.
 */
export interface ToolGrants {
  /** Whether the app lets the user always allow this tool. */
  offers(toolName: string): boolean;
  /** Whether this conversation always allows it: its approvals are answered without asking. */
  allows(toolName: string): boolean;
  allow(toolName: string): void;
  revoke(toolName: string): void;
}

/** A component that renders one interrupt. */
export type InterruptRenderer<TResult = unknown> = ComponentType<InterruptRendererProps<TResult>>;

/**
 * A renderer of any answer type: what renderer maps and the fallback hold. `TResult` goes both in
 * (`result`) and out (`resolve`), so a renderer of one answer type is assignable to no other, not
 * even `unknown` or `never`; `any` is the one type that lets different renderers share a map.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: the one place it is needed.
export type AnyInterruptRenderer = InterruptRenderer<any>;
