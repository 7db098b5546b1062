import { APPROVAL_STATUS } from '../protocol/constants';

/** A label table's `status.<value>` entries from a protocol status map. */
export const statusLabels = (map: Readonly<Record<APPROVAL_STATUS, string>>) =>
  Object.fromEntries(Object.values(APPROVAL_STATUS).map((s) => [`status.${s}`, map[s]])) as Record<`status.${string}`, string>;
