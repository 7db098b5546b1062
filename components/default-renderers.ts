import type { AnyInterruptRenderer } from '../hooks/renderer-props';
import { TimePickerCard } from './time-picker-card/time-picker-card';
import { ToolApprovalCard } from './tool-approval-card/tool-approval-card';
import { UserQuestionCard } from './user-question-card/user-question-card';

/**
 * The built-in cards, keyed the way the registry looks them up:
 * exact reason, `tool:<toolName>`, `<namespace>:*`.
 */
export const defaultRenderers: Readonly<Record<string, AnyInterruptRenderer>> = Object.freeze({
  'aidev:tool_approval': ToolApprovalCard as AnyInterruptRenderer,
  'aidev:user_question': UserQuestionCard as AnyInterruptRenderer,
  'tool:schedule_meeting': TimePickerCard as AnyInterruptRenderer,
});
