import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { exportSources, ROOT } from '../../../bench/size';

/**
 * The names each package entry exports, values and types alike, read the way an app's editor
 * reads them (TypeScript's checker over the entry's source). Pinned on purpose: a name added to
 * or dropped from the public surface must show up in review as a change to this list.
 */
const PUBLIC_NAMES: Record<string, string[]> = {
  '.': [
    'AIDevToolApprovalInterrupt',
    'APPROVAL_STATUS',
    'AnyInterruptResume',
    'Clock',
    'Countdown',
    'EN_LABELS',
    'InboxCardsConfig',
    'Interrupt',
    'InterruptHistory',
    'InterruptHistoryOptions',
    'InterruptHistoryPersistence',
    'InterruptHistoryRecord',
    'InterruptLabels',
    'InterruptLocale',
    'InterruptMessage',
    'InterruptMessageRender',
    'InterruptMessageRenderProps',
    'InterruptReason',
    'InterruptRenderer',
    'InterruptRendererProps',
    'InterruptRenderers',
    'InterruptRenderersConfig',
    'InterruptStatus',
    'LocalInterruptState',
    'LocalInterruptStateOptions',
    'OnInterruptResume',
    'PENDING_LIST_LABELS',
    'PendingInterrupt',
    'PendingInterrupts',
    'PendingInterruptsList',
    'PendingInterruptsListLabels',
    'PendingInterruptsListProps',
    'PendingThread',
    'TimePickerPayload',
    'TimePickerResult',
    'TimeSlot',
    'ToolApprovalResult',
    'ToolGrants',
    'UnwrappedInterrupt',
    'UserQuestionInterrupt',
    'UserQuestionResult',
    'UsePendingInterruptsOptions',
    'WaitingNoticeOptions',
    'createInterruptHistory',
    'defaultRenderers',
    'useCountdown',
    'useInterruptRenderers',
    'useLocalInterruptState',
    'usePendingInterrupts',
    'withInterruptEcho',
  ],
  './cards': [
    'CardBasics',
    'CardPhase',
    'CardShell',
    'CardShellProps',
    'FallbackInterruptCard',
    'FallbackInterruptCardProps',
    'ReadOnlyView',
    'RenderQuestionContext',
    'TimePickerCard',
    'TimePickerCardProps',
    'ToolApprovalCard',
    'ToolApprovalCardProps',
    'UserQuestionCard',
    'UserQuestionCardProps',
    'useCardBasics',
  ],
  './core': [
    'AIDevToolApprovalInterrupt',
    'AIDevToolApprovalInterruptPayloadMetaData',
    'AIDevToolApprovalResume',
    'APPROVAL_STATUS',
    'AnyInterruptResume',
    'APPROVAL_STATUS_MAP',
    'APPROVAL_STATUS_MAP_EN',
    'BaseInterrupt',
    'BaseMessage',
    'BaseResume',
    'FlowNodeResume',
    'Interrupt',
    'InterruptLocale',
    'InterruptMessage',
    'InterruptReason',
    'InterruptRenderInput',
    'InterruptResult',
    'InterruptResume',
    'InterruptResumeOperation',
    'InterruptSource',
    'LANGGRAPH_INTERRUPT_REASON',
    'MASTRA_SUSPEND_REASON',
    'MessageRole',
    'MessageStatus',
    'OnInterruptResume',
    'RenderMode',
    'ResumeRefusal',
    'RendererMap',
    'RendererRegistry',
    'RunFinishedOutcome',
    'setInterruptsDebug',
    'TimePickerPayload',
    'TimeSlot',
    'ToolApprovalResume',
    'UNKNOWN_REASON',
    'UnwrappedInterrupt',
    'UserQuestionAnswerItem',
    'UserQuestionInterrupt',
    'UserQuestionItem',
    'UserQuestionOptionItem',
    'UserQuestionResume',
    'createRendererRegistry',
    'isApprovalTicket',
    'isTerminalApprovalStatus',
    'isTimePickerPayload',
    'isToolApprovalInterrupt',
    'isUserQuestionInterrupt',
    'unwrapInterrupt',
    'unwrapInterrupts',
  ],
  './runtime': [
    'APPROVAL_STATUS',
    'DirectApprovalInput',
    'DirectToolApprovalInterrupt',
    'DirectToolApprovalMetadata',
    'INTERRUPTS_SECRET_ENV',
    'INTERRUPTS_SECRET_MISSING',
    'ANSWER_NOT_ALLOWED',
    'INTERRUPT_CHANGED',
    'INTERRUPT_ID_REFUSED',
    'InterruptBackend',
    'InterruptReason',
    'LANGGRAPH_CANCELLED_KEY',
    'MAX_RESUME_BYTES',
    'MAX_RESUME_ENTRIES',
    'NormalizeInterruptsMiddleware',
    'RESUME_TOO_LARGE',
    'NormalizeInterruptsOptions',
    'TicketApprovalInput',
    'UserQuestionInput',
    'enableMastraToolApprovals',
    'normalizeInterrupts',
    'toolApprovalInterrupt',
    'userQuestionInterrupt',
    'withNormalizedInterrupts',
  ],
  './runner': [
    'Answerer',
    'Approvers',
    'ApproversCheck',
    'ApproversPolicy',
    'Authorize',
    'AuthorizeCheck',
    'DEFAULT_EMBEDDED_DIR',
    'ExpiryOptions',
    'Identify',
    'InboxHandlerOptions',
    'InboxInterrupt',
    'InboxResponse',
    'InterruptEvent',
    'InterruptEventHook',
    'InterruptEventOptions',
    'InterruptEventType',
    'InterruptRecord',
    'InterruptRunner',
    'InterruptRunnerOptions',
    'ListInterruptsQuery',
    'ListThreadsQuery',
    'MAX_THREAD_ID_BYTES',
    'Person',
    'RunnerError',
    'RunnerErrorCode',
    'SCHEMA_VERSION',
    'StoredInterruptStatus',
    'ThreadAction',
    'ThreadChange',
    'ThreadChangeListener',
    'ThreadChangeSource',
    'ThreadRecord',
    'createInboxHandler',
    'createInterruptRunner',
  ],
  './mastra': [
    'ApprovalResume',
    'ApprovalSuspend',
    'ApprovalTicket',
    'ApprovalToolInput',
    'ApprovalToolOptions',
    'DEFAULT_APPROVAL_DESCRIPTION',
    'DEFAULT_TIME_PICKER_DESCRIPTION',
    'DEFAULT_USER_QUESTION_DESCRIPTION',
    'TimePickerResume',
    'TimePickerSuspend',
    'TimePickerToolInput',
    'TimePickerToolOptions',
    'UserQuestionResumeData',
    'UserQuestionSuspend',
    'UserQuestionToolInput',
    'UserQuestionToolOptions',
    'approvalResultText',
    'approvalResumeSchema',
    'approvalSuspendSchema',
    'approvalTicketSchema',
    'createApprovalTool',
    'createTimePickerTool',
    'createUserQuestionTool',
    'generateCandidateSlots',
    'timePickerResultText',
    'timePickerResumeSchema',
    'timePickerSuspendSchema',
    'timeSlotSchema',
    'userQuestionItemSchema',
    'userQuestionOptionSchema',
    'userQuestionResultText',
    'userQuestionResumeSchema',
    'userQuestionSuspendSchema',
  ],
  './locales/zh-CN': ['zhCN'],
};

function exportedNames(): Record<string, string[]> {
  const sources = exportSources().filter(({ source }) => /\.tsx?$/.test(source));
  const config = ts.getParsedCommandLineOfConfigFile(
    `${ROOT}/tsconfig.json`,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  const program = ts.createProgram(
    sources.map(({ source }) => source),
    config!.options,
  );
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    sources.map(({ entry, source }) => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(source)!)!;
      return [
        entry,
        checker
          .getExportsOfModule(module)
          .map((symbol) => symbol.name)
          .sort(),
      ];
    }),
  );
}

describe('the public surface', () => {
  const actual = exportedNames();

  it('should export exactly the pinned names from every entry in package.json', () => {
    expect(actual).toEqual(Object.fromEntries(Object.entries(PUBLIC_NAMES).map(([entry, names]) => [entry, [...names].sort()])));
  });

  it('should keep internals out of every entry', () => {
    const internals = ['formatRemaining', 'resolveLanguage', 'resolveLabels', 'UNWRAP_LIMITS', 'decodeUntrusted', 'liftInterrupt'];
    for (const names of Object.values(actual)) expect(names.filter((name) => internals.includes(name))).toEqual([]);
  });

  it('should publish every locale module in src/i18n/locales as ./locales/<tag>, and nothing else there', () => {
    const modules = readdirSync(join(ROOT, 'src/i18n/locales'))
      .filter((file) => file.endsWith('.ts'))
      .map((file) => `./locales/${file.slice(0, -3)}`);
    const exported = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports).filter((key) =>
      key.startsWith('./locales/'),
    );
    expect(exported.sort()).toEqual(modules.sort());
  });
});
