import { isRecord } from '../../src/wire/guards';

/** One field of a flat JSON schema the fallback card can render as a form control. */
export interface FlatField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean';
  title: string;
  description?: string;
  enum?: readonly (string | number)[];
  required: boolean;
}

const PRIMITIVES = ['string', 'number', 'integer', 'boolean'];

/**
 * The fields of a flat object schema (`{type:'object', properties}` whose properties are all
 * string / number / integer / boolean, optionally `enum`), or `undefined` for anything richer:
 * the card then falls back to Continue / Dismiss instead of guessing at nested forms.
 */
export function flatSchemaFields(schema: unknown): FlatField[] | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties)) return undefined;
  const required = Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
  const fields: FlatField[] = [];
  for (const [name, spec] of Object.entries(schema.properties)) {
    if (!isRecord(spec) || typeof spec.type !== 'string' || !PRIMITIVES.includes(spec.type)) return undefined;
    const values =
      Array.isArray(spec.enum) && spec.enum.every((v) => typeof v === 'string' || typeof v === 'number')
        ? (spec.enum as (string | number)[])
        : undefined;
    fields.push({
      name,
      type: spec.type as FlatField['type'],
      title: typeof spec.title === 'string' ? spec.title : name,
      description: typeof spec.description === 'string' ? spec.description : undefined,
      enum: values,
      required: required.includes(name),
    });
  }
  return fields.length > 0 ? fields : undefined;
}

/**
 * The value the user gave a field, read as data: only an own property counts, so a field named
 * `toString` or `__proto__` is not "filled" by what every object inherits.
 */
export function ownValue(values: Readonly<Record<string, string | boolean>>, name: string): string | boolean | undefined {
  return Object.hasOwn(values, name) ? values[name] : undefined;
}

/** Sets an own property without running a setter (assigning `__proto__` would change the prototype). */
const define = (target: Record<string, unknown>, name: string, value: unknown) =>
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });

/** Form values (strings from inputs, booleans from checkboxes) as the schema's types; empty optional fields are left out. */
export function coerceValues(fields: readonly FlatField[], values: Readonly<Record<string, string | boolean>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = ownValue(values, field.name);
    if (field.type === 'boolean') define(out, field.name, value === true);
    else if (typeof value === 'string' && value.trim() !== '') {
      if (field.type === 'string') define(out, field.name, value);
      else if (Number.isFinite(Number(value))) define(out, field.name, Number(value));
    }
  }
  return out;
}

/** True when every required field has a usable value. */
export function isFormComplete(fields: readonly FlatField[], values: Readonly<Record<string, string | boolean>>): boolean {
  const coerced = coerceValues(fields, values);
  return fields.every((f) => !f.required || f.type === 'boolean' || Object.hasOwn(coerced, f.name));
}
