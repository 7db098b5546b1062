import { useId, type ChangeEvent } from 'react';
import type { InterruptLabels } from '../../src/i18n/labels';
import { ownValue, type FlatField } from './flat-schema';

export interface FallbackFormFieldProps {
  field: FlatField;
  value: string | boolean | undefined;
  labels: InterruptLabels;
  onChange: (value: string | boolean) => void;
}

/** One labelled control for a flat-schema field: checkbox, select (enum), number or text input. */
export function FallbackFormField({ field, value, labels, onChange }: FallbackFormFieldProps) {
  const id = useId();
  const hintId = useId();
  const hint = field.description ? (
    <span className="cki-field__hint" id={hintId}>
      {field.description}
    </span>
  ) : null;
  // What every control carries, whatever its kind.
  const control = { id, 'aria-describedby': field.description ? hintId : undefined };
  const title = (
    <span className="cki-field__label">
      {field.title}
      {field.required ? <span className="cki-field__required"> ({labels.fallbackRequired})</span> : null}
    </span>
  );
  if (field.type === 'boolean') {
    return (
      <div className="cki-field cki-field--inline">
        <input {...control} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>{title}</label>
        {hint}
      </div>
    );
  }
  const textControl = {
    ...control,
    className: 'cki-input',
    value: typeof value === 'string' ? value : '',
    required: field.required,
    onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange(e.target.value),
  };
  return (
    <div className="cki-field">
      <label htmlFor={id}>{title}</label>
      {field.enum ? (
        <select {...textControl}>
          <option value="">—</option>
          {field.enum.map(String).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : (
        <input {...textControl} type={field.type === 'string' ? 'text' : 'number'} step={field.type === 'integer' ? 1 : undefined} />
      )}
      {hint}
    </div>
  );
}

export interface FlatSchemaFieldsProps {
  fields: readonly FlatField[];
  values: Readonly<Record<string, string | boolean>>;
  labels: InterruptLabels;
  onChange: (name: string, value: string | boolean) => void;
}

/** A control for each field of a flat schema (the fallback card's form, the approval card's Edit form). */
export function FlatSchemaFields({ fields, values, labels, onChange }: FlatSchemaFieldsProps) {
  return fields.map((field) => (
    <FallbackFormField
      key={field.name}
      field={field}
      value={ownValue(values, field.name)}
      labels={labels}
      onChange={(value) => onChange(field.name, value)}
    />
  ));
}
