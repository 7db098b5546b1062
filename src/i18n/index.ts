export type { InterruptLocale } from './locale';
export { EN_LABELS, approvalStatusLabel, formatLabel, resolveLabels, type InterruptLabels } from './labels';
