import { INTERRUPT_PEOPLE_KEY } from '../protocol/constants';
import type { InterruptApprover, InterruptPeople } from '../protocol/types';
import { isRecord } from '../wire/guards';

/** At most this many approvers are named on a card; a name is cut to this many characters. */
const MAX_SHOWN = 20;
const MAX_TEXT = 200;

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? (value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value) : undefined;

function approverOf(value: unknown): InterruptApprover | undefined {
  if (!isRecord(value)) return undefined;
  const role = text(value.role);
  if (role !== undefined) return { role };
  const id = text(value.id);
  if (id === undefined) return undefined;
  const name = text(value.name);
  return name === undefined ? { id } : { id, name };
}

/**
 * What the durable runner told this viewer of an interrupt (`metadata['copilotkit-interrupts:people']`),
 * or undefined when it told nothing or something that does not read as it. Only the card's wording
 * follows it: the server decides who may answer.
 */
export function peopleOf(metadata: Record<string, unknown>): InterruptPeople | undefined {
  const value = metadata[INTERRUPT_PEOPLE_KEY];
  if (!isRecord(value) || typeof value.viewerMayAnswer !== 'boolean') return undefined;
  const waitingFor = Array.isArray(value.waitingFor)
    ? value.waitingFor.slice(0, MAX_SHOWN).flatMap((entry) => {
        const approver = approverOf(entry);
        return approver ? [approver] : [];
      })
    : [];
  const people: InterruptPeople = { viewerMayAnswer: value.viewerMayAnswer, waitingFor };
  if (value.noOne === true) people.noOne = true;
  const by = isRecord(value.answeredBy) ? value.answeredBy : undefined;
  const byId = text(by?.id);
  if (by && byId !== undefined) {
    const name = text(by.name);
    const at = typeof by.at === 'string' && Number.isFinite(Date.parse(by.at)) ? by.at : undefined;
    people.answeredBy = {
      id: byId,
      ...(name !== undefined ? { name } : {}),
      ...(at !== undefined ? { at } : {}),
      isViewer: by.isViewer === true,
    };
  }
  return people;
}

/** The runner told this viewer they may not answer `interrupt` (it waits for someone else). */
export const givenToOthers = (interrupt: { metadata?: unknown; people?: { viewerMayAnswer: boolean } }): boolean =>
  (interrupt.people ?? (isRecord(interrupt.metadata) ? peopleOf(interrupt.metadata) : undefined))?.viewerMayAnswer === false;
