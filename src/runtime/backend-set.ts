import type { InterruptBackend, Report } from '../backends/types';
import { errorMessage } from '../error-message';
import { isRecord } from '../wire/guards';
import { LOG } from '../log';

/**
 * Marks an interrupt id from below that starts like one of ours (or like this mark): the agent's
 * own, or one an inner `normalizeInterrupts` gave. A resume reads ids by their prefix, so its
 * answer must come back under the id that was given: one mark off, the rest untouched.
 */
export const OWN_ID_PREFIX = 'own::';

/** The backends one middleware asks, in order, and which of them an id belongs to. */
export interface BackendSet {
  readonly list: readonly InterruptBackend[];
  /** Whether an id is one the middleware gives (and so signs): only those carry anything it reads back. */
  isOurs(id: string): boolean;
  /** The backend whose id this is: the one with the longest prefix it starts with. */
  ownerOf(id: string): InterruptBackend | undefined;
}

/**
 * The app's backends, then the built-in ones, in the order they are asked. Throws, at startup, when
 * an id prefix is missing or overlaps another's (see {@link checkPrefixes}).
 */
export function backendSet(own: readonly InterruptBackend[], builtIn: readonly InterruptBackend[]): BackendSet {
  // The built-in ones first, so that a message names the backend of yours that overlaps.
  checkPrefixes([...builtIn, ...own]);
  const list = [...own, ...builtIn];
  const prefixes = [OWN_ID_PREFIX, ...list.flatMap((backend) => backend.idPrefixes)];
  return {
    list,
    isOurs: (id) => prefixes.some((prefix) => id.startsWith(prefix)),
    ownerOf: (id) => {
      let owner: InterruptBackend | undefined;
      let length = 0;
      for (const backend of list) {
        for (const prefix of backend.idPrefixes) {
          if (id.startsWith(prefix) && prefix.length > length) [owner, length] = [backend, prefix.length];
        }
      }
      return owner;
    },
  };
}

/**
 * Throws when a backend's id prefixes are not non-empty texts or one starts like another's (or
 * like `own::`): an answer must go back to exactly one backend.
 */
export function checkPrefixes(backends: readonly InterruptBackend[]): void {
  const owned: { prefix: string; name: string }[] = [{ prefix: OWN_ID_PREFIX, name: 'normalizeInterrupts' }];
  for (const backend of backends) {
    const name = typeof backend?.name === 'string' ? backend.name : 'a backend';
    if (!Array.isArray(backend?.idPrefixes) || backend.idPrefixes.some((prefix) => typeof prefix !== 'string' || prefix === '')) {
      throw new Error(`${LOG} normalizeInterrupts: the backend ${JSON.stringify(name)} needs idPrefixes, a list of non-empty texts.`);
    }
    for (const prefix of backend.idPrefixes) {
      const other = owned.find((item) => item.prefix.startsWith(prefix) || prefix.startsWith(item.prefix));
      if (other) {
        throw new Error(
          `${LOG} normalizeInterrupts: the id prefix ${JSON.stringify(prefix)} of the backend ${JSON.stringify(name)} overlaps ${JSON.stringify(other.prefix)} of ${JSON.stringify(other.name)}; an answer must go back to one backend, so give it a prefix of its own.`,
        );
      }
      owned.push({ prefix, name });
    }
  }
}

/** A resume entry's `interruptId` when it is text; undefined for anything else. */
export const idOf = (item: unknown): string | undefined =>
  isRecord(item) && typeof item.interruptId === 'string' ? item.interruptId : undefined;

/** What a middleware reports with: `report` every time, `reportOnce` once per problem for its life. */
export interface Reporter {
  report: Report;
  reportOnce: Report;
}

/** Reports to `onProblem`, or to the console; a throwing callback never breaks the run. */
export function reporter(onProblem: ((problem: string, event: unknown) => void) | undefined): Reporter {
  const report: Report = (problem, event) => {
    try {
      if (onProblem) onProblem(problem, event);
      else console.warn(`${LOG} ${problem}`);
    } catch {
      // A reporting callback must not break the run either.
    }
  };
  const reported = new Set<string>();
  const reportOnce: Report = (problem, event) => {
    if (reported.has(problem)) return;
    reported.add(problem);
    report(problem, event);
  };
  return { report, reportOnce };
}

/** `work()`, or `fallback` with a report when it throws: the middleware never breaks a run. */
export function safely<T>(work: () => T, fallback: T, report: Report, what: string): T {
  try {
    return work();
  } catch (error) {
    report(`Could not normalize an interrupt ${what}; passing it through unchanged (${errorMessage(error)}).`, fallback);
    return fallback;
  }
}
