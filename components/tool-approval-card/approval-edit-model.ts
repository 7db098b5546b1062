import { isRecord } from '../../src/wire/guards';
import { errorMessage } from '../../src/error-message';
import { flatSchemaFields, type FlatField } from '../shared/flat-schema';

export { toolCallOf, type ApprovalToolCall } from '../../src/unwrap/approval-call';

type Args = Record<string, unknown>;

const has = (object: object, name: string) => Object.hasOwn(object, name);

/** The arguments as an object, decoding a JSON string (tool arguments often arrive encoded). */
export function argsObject(args: unknown): Args | undefined {
  if (isRecord(args)) return args;
  if (typeof args !== 'string') return undefined;
  try {
    const decoded: unknown = JSON.parse(args);
    return isRecord(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

/** How the arguments can be edited: a form for a flat schema, else JSON text. */
export type ArgsEditor = { kind: 'form'; fields: FlatField[] } | { kind: 'json' };

export function argsEditorFor(argsSchema: unknown): ArgsEditor {
  const fields = flatSchemaFields(argsSchema);
  return fields ? { kind: 'form', fields } : { kind: 'json' };
}

/** The JSON editor's text parsed: the edited arguments, or why they cannot be sent. */
export function parseArgsJson(text: string): { ok: true; args: Args } | { ok: false; problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: errorMessage(error) };
  }
  return isRecord(value) ? { ok: true, args: value } : { ok: false, problem: 'The arguments must be one JSON object ({ … }).' };
}

/** A form's starting values: the current arguments as the controls hold them. */
export function formValuesFrom(fields: readonly FlatField[], args: Args | undefined): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const field of fields) {
    const value = args && has(args, field.name) ? args[field.name] : undefined;
    if (field.type === 'boolean') values[field.name] = value === true;
    else if (typeof value === 'string' || typeof value === 'number') values[field.name] = String(value);
  }
  return values;
}

/** One top-level argument that an edit changed. */
export interface ArgChange {
  name: string;
  /** Absent when the edit added the argument. */
  before?: unknown;
  /** Absent when the edit removed it. */
  after?: unknown;
}

/** Structural equality of JSON values; key order does not matter. */
function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => has(b, key) && same(a[key], b[key]));
}

/** What an edit changed, argument by argument, in the order the arguments first appear. */
export function diffArgs(before: Args | undefined, after: Args): ArgChange[] {
  const old = before ?? {};
  const names = [...new Set([...Object.keys(old), ...Object.keys(after)])];
  const changes: ArgChange[] = [];
  for (const name of names) {
    if (!has(after, name)) changes.push({ name, before: old[name] });
    else if (!has(old, name)) changes.push({ name, after: after[name] });
    else if (!same(old[name], after[name])) changes.push({ name, before: old[name], after: after[name] });
  }
  return changes;
}
