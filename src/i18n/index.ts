export type { InterruptLocale } from './locale';
export {
  EN_LABELS,
  approvalStatusLabel,
  formatLabel,
  resolveLabels,
  resolveLanguage,
  type CardLanguage,
  type InterruptLabels,
} from './labels';
export { answerHeldText, answeredByText, waitingText } from './people-text';
