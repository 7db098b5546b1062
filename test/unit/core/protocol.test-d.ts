import { describe, expectTypeOf, it } from 'vitest';
import {
  APPROVAL_STATUS,
  InterruptReason,
  InterruptResumeOperation,
  MessageRole,
  MessageStatus,
  type AIDevToolApprovalInterrupt,
  type AIDevToolApprovalResume,
  type BaseInterrupt,
  type FlowNodeResume,
  type Interrupt,
  type InterruptMessage,
  type InterruptResult,
  type InterruptResume,
  type OnInterruptResume,
  type RunFinishedOutcome,
  type ToolApprovalResume,
  type UserQuestionAnswerItem,
  type UserQuestionInterrupt,
  type UserQuestionResume,
  type AnyInterruptResume,
} from '../../../src/protocol';
import type { InterruptRendererProps } from '../../../hooks/renderer-props';
import type { InterruptRenderersConfig } from '../../../hooks/types';
import type { InterruptHistoryRecord } from '../../../src/history';
import type { InterruptStatus } from '../../../src/session';

describe('protocol types', () => {
  it('pins the string values of the enums', () => {
    expectTypeOf<`${InterruptReason}`>().toEqualTypeOf<'aidev:tool_approval' | 'aidev:user_question'>();
    expectTypeOf<`${APPROVAL_STATUS}`>().toEqualTypeOf<
      'abandoned' | 'approved' | 'cancelled' | 'draft' | 'expired' | 'pending' | 'rejected' | 'revoked'
    >();
    expectTypeOf<`${InterruptResumeOperation}`>().toEqualTypeOf<
      'approval_cancel' | 'approval_refresh' | 'flow_node_retry' | 'flow_node_skip'
    >();
  });

  it('pins BaseInterrupt fields and optionality', () => {
    type B = BaseInterrupt<InterruptReason.UserQuestion, { a: number }>;
    expectTypeOf<B>().toEqualTypeOf<{
      expiresAt?: string;
      id: string;
      message?: string;
      metadata?: { a: number };
      properties?: Record<string, any>;
      reason: InterruptReason.UserQuestion;
      toolCallId: string;
    }>();
  });

  it('pins the approval ticket and the question item shapes', () => {
    expectTypeOf<NonNullable<AIDevToolApprovalInterrupt['metadata']>['ticket']>().toEqualTypeOf<{
      approvers: string[];
      sn: string;
      status: APPROVAL_STATUS;
      submit_time: string;
      title: string;
      url: string;
    }>();
    expectTypeOf<NonNullable<UserQuestionInterrupt['metadata']>['questions'][number]>().toEqualTypeOf<{
      header: string;
      multiSelect?: boolean;
      options?: { description?: string; label: string }[];
      question: string;
    }>();
    expectTypeOf<UserQuestionAnswerItem>().toEqualTypeOf<{
      answer: { description?: string; label: string }[];
      multiSelect?: boolean;
      question: string;
    }>();
  });

  it('pins the unions', () => {
    expectTypeOf<InterruptResume>().toEqualTypeOf<FlowNodeResume | ToolApprovalResume | UserQuestionResume>();
    expectTypeOf<InterruptResult>().toEqualTypeOf<AIDevToolApprovalResume | UserQuestionResume>();
    expectTypeOf<RunFinishedOutcome>().toEqualTypeOf<{ interrupts: Interrupt[]; type: 'interrupt' } | { type: 'success' }>();
    expectTypeOf<UserQuestionResume['status']>().toEqualTypeOf<'cancelled' | 'resolved'>();
    expectTypeOf<ToolApprovalResume['payload']>().toEqualTypeOf<{ interrupt_id: number | string }>();
    expectTypeOf<FlowNodeResume['payload']>().toEqualTypeOf<{ node_id: string; task_id: number }>();
    expectTypeOf<OnInterruptResume>().toEqualTypeOf<(payload: InterruptResume, interrupt?: Interrupt) => Promise<void> | void>();
  });

  it('compiles the published protocol examples as written', () => {
    const resume: UserQuestionResume = {
      interruptId: 'interrupt_user_question',
      reason: InterruptReason.UserQuestion,
      status: 'resolved',
      payload: {
        answers: [
          {
            question: '请选择语言',
            multiSelect: true,
            answer: [
              { label: 'Java', description: 'Java' },
              { label: 'others', description: 'Rust' },
            ],
          },
        ],
      },
    };
    expectTypeOf(resume).toEqualTypeOf<UserQuestionResume>();

    const message: InterruptMessage = {
      id: 'msg_interrupt_1',
      messageId: 'msg_interrupt_1',
      role: MessageRole.Interrupt,
      status: MessageStatus.Pending,
      content: {
        message: '需要您处理以下中断',
        outcome: {
          type: 'interrupt',
          interrupts: [
            {
              id: 'interrupt_approval_1',
              reason: InterruptReason.AIDevToolApproval,
              toolCallId: 'tool_call_approval_1',
              metadata: {
                ticket: {
                  approvers: ['张三'],
                  sn: 'REV-2026-04-24-001',
                  status: APPROVAL_STATUS.PENDING,
                  submit_time: '2026-04-24 14:30:15',
                  title: '算法方案评审单',
                  url: 'https://example.com/tickets/REV-2026-04-24-001',
                },
              },
            },
            {
              id: 'interrupt_question_1',
              reason: InterruptReason.UserQuestion,
              toolCallId: 'tool_call_question_1',
              message: '请选择实现方案',
              metadata: {
                questions: [
                  {
                    header: '请选择实现方案',
                    multiSelect: false,
                    question: '你希望采用哪种排序实现？',
                    options: [
                      { label: 'basic', description: '基础冒泡排序' },
                      { label: 'optimized', description: '提前终止优化版' },
                    ],
                  },
                ],
              },
            },
          ],
        },
      },
    };
    expectTypeOf(message.content.outcome).toEqualTypeOf<RunFinishedOutcome | undefined>();

    const handleInterruptResume: OnInterruptResume = async (payload, interrupt) => {
      if ('operation' in payload) {
        switch (payload.operation) {
          case InterruptResumeOperation.ApprovalCancel:
          case InterruptResumeOperation.ApprovalRefresh:
            expectTypeOf(payload.payload.interrupt_id).toEqualTypeOf<number | string>();
            break;
          case InterruptResumeOperation.FlowNodeRetry:
          case InterruptResumeOperation.FlowNodeSkip:
            expectTypeOf(payload.payload).toEqualTypeOf<{ node_id: string; task_id: number }>();
            break;
        }
        return;
      }
      expectTypeOf(payload).toEqualTypeOf<UserQuestionResume>();
      expectTypeOf(interrupt).toEqualTypeOf<Interrupt | undefined>();
    };
    expectTypeOf(handleInterruptResume).toBeFunction();
  });
});

describe('one vocabulary', () => {
  it('given the renderer props, the hook and the history, should type the lifecycle with the one InterruptStatus', () => {
    expectTypeOf<InterruptStatus>().toEqualTypeOf<
      'pending' | 'submitting' | 'resolved' | 'cancelled' | 'dismissed' | 'expired' | 'error'
    >();
    expectTypeOf<InterruptRendererProps['status']>().toEqualTypeOf<InterruptStatus>();
    expectTypeOf<InterruptHistoryRecord['status']>().toEqualTypeOf<InterruptStatus>();
  });

  it('given a resume callback, should type it with OnInterruptResume: the protocol union alone, the wider one the library calls', () => {
    expectTypeOf<OnInterruptResume<AnyInterruptResume, unknown>>().toEqualTypeOf<
      (payload: AnyInterruptResume, interrupt?: Interrupt) => unknown
    >();
    expectTypeOf<InterruptRendererProps['onInterruptResume']>().toEqualTypeOf<OnInterruptResume<AnyInterruptResume, unknown> | undefined>();
    expectTypeOf<InterruptRenderersConfig['onInterruptResume']>().toEqualTypeOf<
      OnInterruptResume<AnyInterruptResume, unknown> | undefined
    >();
  });
});
