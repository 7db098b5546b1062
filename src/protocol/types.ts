import type { APPROVAL_STATUS, InterruptReason, InterruptResumeOperation, MessageRole, MessageStatus } from './constants';

/* eslint-disable @typescript-eslint/no-explicit-any -- the protocol's metadata and payloads are open records (Record<string, any>), as published. */

/** Common shape of every interrupt. */
export type BaseInterrupt<T extends InterruptReason, M extends Record<string, any>> = {
  expiresAt?: string;
  id: string;
  message?: string;
  metadata?: M;
  properties?: Record<string, any>;
  reason: T;
  toolCallId: string;
};

/** The approval ticket carried by an `aidev:tool_approval` interrupt. */
export type AIDevToolApprovalInterruptPayloadMetaData = {
  ticket: {
    approvers: string[];
    sn: string;
    status: APPROVAL_STATUS;
    submit_time: string;
    title: string;
    url: string;
  };
};

export type AIDevToolApprovalInterrupt = BaseInterrupt<InterruptReason.AIDevToolApproval, AIDevToolApprovalInterruptPayloadMetaData>;

export type UserQuestionOptionItem = {
  /**
   * Optional, although the published protocol requires it: the card shows it under the label when present,
   * and an "Others" answer always carries the typed text here.
   */
  description?: string;
  label: string;
};

export type UserQuestionItem = {
  header: string;
  /** Choice questions only; absent means no tag and single-choice behaviour. */
  multiSelect?: boolean;
  options?: UserQuestionOptionItem[];
  question: string;
};

export type UserQuestionInterrupt = BaseInterrupt<
  InterruptReason.UserQuestion,
  {
    questions: UserQuestionItem[];
  }
>;

/** Every interrupt the protocol supports. */
export type Interrupt = AIDevToolApprovalInterrupt | UserQuestionInterrupt | BaseInterrupt<InterruptReason, Record<string, any>>;

/** Someone an interrupt waits for: a person by id (and name), or anyone with a role. */
export type InterruptApprover = { id: string; name?: string } | { role: string };

/**
 * Who an interrupt is for, as the durable runner tells the person it streams the thread to (in
 * `metadata['copilotkit-interrupts:people']`, read into `UnwrappedInterrupt.people`). The server
 * enforces it; this only lets the card say so.
 */
export interface InterruptPeople {
  /** Whether the person viewing may answer it. */
  viewerMayAnswer: boolean;
  /** Who it waits for (named people and roles); empty when anyone who may answer the thread may, or when no one may. */
  waitingFor: InterruptApprover[];
  /** True when its approvers name no one: no person can answer it. */
  noOne?: boolean;
  /** Who answered it and when (ISO 8601), and whether that was the person viewing. */
  answeredBy?: { id: string; name?: string; at?: string; isViewer: boolean };
}

/** The `outcome` of a RUN_FINISHED event. */
export type RunFinishedOutcome = { interrupts: Interrupt[]; type: 'interrupt' } | { type: 'success' };

export type BaseResume<T extends InterruptReason, P extends Record<string, any>> = {
  interruptId: string;
  payload: P;
  reason: T;
  status: 'cancelled' | 'resolved';
};

export type UserQuestionAnswerItem = {
  answer: UserQuestionOptionItem[];
  multiSelect?: boolean;
  question: string;
};

export type UserQuestionResume = BaseResume<
  InterruptReason.UserQuestion,
  {
    answers: UserQuestionAnswerItem[];
  }
>;

/** Echo of an approval after resume: the ticket as the interrupt carried it. */
export type AIDevToolApprovalResume = BaseResume<
  InterruptReason.AIDevToolApproval,
  { metadata: AIDevToolApprovalInterruptPayloadMetaData }
>;

export type ToolApprovalResume = {
  operation: InterruptResumeOperation.ApprovalCancel | InterruptResumeOperation.ApprovalRefresh;
  payload: { interrupt_id: number | string };
};

/** Flow nodes are not interrupts: `onInterruptResume` gets no second argument for them. */
export type FlowNodeResume = {
  operation: InterruptResumeOperation.FlowNodeRetry | InterruptResumeOperation.FlowNodeSkip;
  payload: {
    node_id: string;
    task_id: number;
  };
};

/** What `onInterruptResume` receives: an operation or an answer. */
export type InterruptResume = FlowNodeResume | ToolApprovalResume | UserQuestionResume;

/** What is stored after resume to echo the outcome in the transcript. */
export type InterruptResult = AIDevToolApprovalResume | UserQuestionResume;

/** Chat-x message base, reduced to the fields an interrupt message uses. */
export interface BaseMessage<T extends string, C = string> {
  id: number | string;
  messageId: number | string;
  role: T;
  content: C;
  status: MessageStatus;
  uid?: string;
  name?: string;
  createdAt?: number | string;
}

/** A stored chat-x message of role `interrupt`. */
export type InterruptMessage = BaseMessage<
  MessageRole.Interrupt,
  {
    message?: string;
    outcome?: RunFinishedOutcome;
    result?: InterruptResult;
    runId?: string;
    threadId?: string;
  }
>;

/**
 * Called when the user acts on an interrupt card (answer, approval cancel / refresh, flow node).
 * `interrupt` is passed for interrupt-sourced actions and omitted for flow nodes.
 *
 * Without type arguments it takes the protocol's own `InterruptResume` union. The hook, `InterruptMessageRender` and the
 * cards take `OnInterruptResume<AnyInterruptResume, unknown>`: they also pass the resume record of
 * cards outside that union (a time picker's `BaseResume`), and `approval_refresh` may return
 * the updated ticket.
 */
export type OnInterruptResume<TPayload = InterruptResume, TReturn = Promise<void> | void> = (
  payload: TPayload,
  interrupt?: Interrupt,
) => TReturn;

/** Every payload `onInterruptResume` can get from this library: the protocol's, or any card's resume record. */
export type AnyInterruptResume = InterruptResume | BaseResume<InterruptReason, Record<string, unknown>>;
