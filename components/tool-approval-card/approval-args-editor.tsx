import { useId, useMemo, useState } from 'react';
import type { InterruptLabels } from '../../src/i18n/labels';
import { formatLabel } from '../../src/i18n/labels';
import { argsEditorFor, formValuesFrom, parseArgsJson } from './approval-edit-model';
import { FlatSchemaFields } from '../shared/flat-schema-fields';
import { coerceValues, isFormComplete } from '../shared/flat-schema';

type Args = Record<string, unknown>;

export interface ApprovalArgsEditorProps {
  /** The arguments as the agent sent them. */
  args: Args | undefined;
  /** Their JSON schema, when the agent sent one: a flat one gets a form, anything else JSON text. */
  argsSchema: unknown;
  labels: InterruptLabels;
  /** Approve with these arguments; they replace the agent's whole. */
  onApprove: (editedArgs: Args) => void;
  /** Leave editing; nothing is sent. */
  onBack: () => void;
}

/**
 * Edits a tool call's arguments before approving it: a form generated from a flat JSON schema,
 * otherwise a JSON editor that must hold one object before "Approve with edits" is enabled.
 */
export function ApprovalArgsEditor({ args, argsSchema, labels, onApprove, onBack }: ApprovalArgsEditorProps) {
  const editor = useMemo(() => argsEditorFor(argsSchema), [argsSchema]);
  const jsonId = useId();
  const problemId = useId();
  const [values, setValues] = useState(() => (editor.kind === 'form' ? formValuesFrom(editor.fields, args) : {}));
  const [text, setText] = useState(() => JSON.stringify(args ?? {}, null, 2));

  let edited: Args | undefined;
  let problem: string | undefined;
  if (editor.kind === 'form') {
    if (isFormComplete(editor.fields, values)) {
      // Arguments the schema does not describe are kept; the ones it does come from the form.
      const rest = { ...args };
      for (const field of editor.fields) delete rest[field.name];
      edited = { ...rest, ...coerceValues(editor.fields, values) };
    }
  } else {
    const parsed = parseArgsJson(text);
    if (parsed.ok) edited = parsed.args;
    else problem = formatLabel(labels.approvalArgsInvalid, { problem: parsed.problem });
  }

  return (
    <div className="cki-approval__edit" data-testid="approval-edit">
      {editor.kind === 'form' ? (
        <div className="cki-form">
          <FlatSchemaFields
            fields={editor.fields}
            values={values}
            labels={labels}
            onChange={(name, value) => setValues((all) => ({ ...all, [name]: value }))}
          />
        </div>
      ) : (
        <label className="cki-field" htmlFor={jsonId}>
          <span className="cki-field__label">{labels.approvalArgumentsJson}</span>
          <textarea
            id={jsonId}
            className="cki-input cki-input--code"
            data-testid="approval-edit-json"
            rows={Math.min(12, Math.max(4, text.split('\n').length))}
            spellCheck={false}
            value={text}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? problemId : undefined}
            onChange={(e) => setText(e.target.value)}
          />
        </label>
      )}
      {problem ? (
        <p className="cki-error__text" id={problemId} data-testid="approval-edit-problem" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="cki-actions">
        <button
          type="button"
          className="cki-button cki-button--primary"
          data-testid="approval-approve-edited"
          disabled={edited === undefined}
          onClick={() => edited && onApprove(edited)}
        >
          {labels.approvalApproveEdited}
        </button>
        <button type="button" className="cki-button cki-button--ghost" data-testid="approval-edit-back" onClick={onBack}>
          {labels.approvalBack}
        </button>
      </div>
    </div>
  );
}
