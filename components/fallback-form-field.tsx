import { useId } from 'react';
import type { InterruptLabels } from '../src/i18n/labels';
import type { FlatField } from './flat-schema';

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
  const describedBy = field.description ? hintId : undefined;
  const title = (
    <span className="cki-field__label">
      {field.title}
      {field.required ? <span className="cki-field__required"> ({labels.fallbackRequired})</span> : null}
    </span>
  );
  if (field.type === 'boolean') {
    return (
      <div className="cki-field cki-field--inline">
        <input id={id} type="checkbox" checked={value === true} aria-describedby={describedBy} onChange={(e) => onChange(e.target.checked)} />
        <label htmlFor={id}>{title}</label>
        {hint}
      </div>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="cki-field">
      <label htmlFor={id}>{title}</label>
      {field.enum ? (
        <select id={id} className="cki-input" value={text} required={field.required} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {field.enum.map((option) => (
            <option key={String(option)} value={String(option)}>
              {String(option)}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          className="cki-input"
          type={field.type === 'string' ? 'text' : 'number'}
          step={field.type === 'integer' ? 1 : undefined}
          value={text}
          required={field.required}
          aria-describedby={describedBy}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {hint}
    </div>
  );
}
