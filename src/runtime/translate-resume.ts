/**
 * The translating half of the middleware: a checked resume in the form each backend's agent reads.
 * Reads nothing but the input: ids carry the rest.
 */
import type { RunAgentInput } from '@ag-ui/client';
import type { Answer, CommandAnswer, InterruptBackend, Json, Report } from '../backends/types';
import { isRecord } from '../wire/guards';
import { OWN_ID_PREFIX, idOf, safely, type BackendSet } from './backend-set';

/** A resume's entries split by who reads them: the backends that translate theirs, and the rest. */
export interface Grouped {
  /** Entries that stay in AG-UI's `resume` as they are (or with the `own::` mark taken off). */
  rest: unknown[];
  /** Each translating backend's answers, in the order of the resume. */
  groups: Map<InterruptBackend, Answer[]>;
  /** Whether any entry lost its mark or belongs to a backend: the input changes. */
  changed: boolean;
}

/** The entries of a resume grouped by the backend that translates them (see {@link Grouped}). */
export function groupAnswers(resume: readonly unknown[], backends: BackendSet): Grouped {
  const rest: unknown[] = [];
  const groups = new Map<InterruptBackend, Answer[]>();
  let changed = false;
  for (const item of resume) {
    const id = idOf(item);
    if (id?.startsWith(OWN_ID_PREFIX)) {
      changed = true;
      rest.push({ ...(item as Json), interruptId: id.slice(OWN_ID_PREFIX.length) });
      continue;
    }
    const owner = id === undefined ? undefined : backends.ownerOf(id);
    if (!owner?.toResume) {
      rest.push(item);
      continue;
    }
    // Appended in place: copying the group for each entry made a long resume cost its square.
    const group = groups.get(owner);
    if (group) group.push(item as Answer);
    else groups.set(owner, [item as Answer]);
  }
  return { rest, groups, changed: changed || groups.size > 0 };
}

/**
 * The run input with each answer in the form its backend's agent reads (see
 * {@link InterruptBackend.toResume}): AG-UI's `resume`, or `forwardedProps.command` (LangGraph's
 * resume map, a legacy agent's `{resume, interruptEvent}`). A client that already speaks the
 * legacy way (its own `forwardedProps.command`) is left alone.
 */
export function translateResume(input: RunAgentInput, backends: BackendSet, report: Report): Translated {
  const resume = (input as { resume?: unknown }).resume;
  if (!Array.isArray(resume) || resume.length === 0) return { input };
  const forwarded = isRecord(input.forwardedProps) ? input.forwardedProps : {};
  if (isRecord(forwarded.command)) return { input };

  const { rest, groups, changed } = groupAnswers(resume, backends);
  const command: CommandAnswer[] = [];
  for (const [backend, answers] of groups) {
    const translated = safely(() => backend.toResume?.(answers, { report }) ?? { resume: answers }, { resume: answers }, report, 'resume');
    rest.push(...(translated.resume ?? []));
    command.push(...(translated.command ?? []));
  }
  if (command.length === 0) return { input: changed ? ({ ...input, resume: rest } as unknown as RunAgentInput) : input };

  const exclusive = command.find((answer) => answer.exclusive)?.exclusive;
  if (exclusive && rest.length > 0) {
    // That agent's bridge lets any `resume` left beside the command win over it.
    report(`${rest.length} resume entr${rest.length === 1 ? 'y does' : 'ies do'} not belong to this ${exclusive} run; dropped.`, rest);
    rest.length = 0;
  }
  const messagesAfterResume = command.some((answer) => answer.messagesAfterResume);
  const out = commandOf(command);
  if (command.some((answer) => answer.asResumeEntry)) {
    // The map as the payload of the one entry (LangGraph's bridge makes it `Command({resume})` as it is).
    const entry = { interruptId: command[0].key, status: 'resolved', payload: out.resume };
    return { input: { ...input, resume: [entry] } as unknown as RunAgentInput, messagesAfterResume };
  }
  const translated: Json = { ...input, forwardedProps: { ...forwarded, command: out } };
  if (rest.length > 0) translated.resume = rest;
  else delete translated.resume;
  return { input: translated as unknown as RunAgentInput, messagesAfterResume };
}

/** The run input as the backends' agents read it; `messagesAfterResume`: a message sent with it must run after it (see {@link CommandAnswer.messagesAfterResume}). */
export type Translated = { input: RunAgentInput; messagesAfterResume?: boolean };

/**
 * The `forwardedProps.command` the answers make: a lone answer that asks for it as `resume` itself
 * (the legacy way), else one map keyed by each interrupt's own id; with the first carried event.
 */
export function commandOf(command: readonly CommandAnswer[]): Json {
  const out: Json = {};
  if (command.length === 1 && command[0].alone) {
    out.resume = command[0].value;
    if (command[0].interruptEvent) out.interruptEvent = command[0].interruptEvent.value;
    return out;
  }
  // One map, keyed by each interrupt's own id, the form LangGraph resumes: a node gets only its
  // own answer, even when it is the only one (an answer without an id would go to every open
  // interrupt, and a stale one to the next). No prototype, so no id is special.
  const answers: Json = Object.create(null) as Json;
  for (const answer of command) {
    answers[answer.fallbackKey !== undefined && Object.hasOwn(answers, answer.key) ? answer.fallbackKey : answer.key] = answer.value;
  }
  out.resume = answers;
  const first = command.find((answer) => answer.interruptEvent);
  if (first?.interruptEvent) out.interruptEvent = first.interruptEvent.value;
  return out;
}
