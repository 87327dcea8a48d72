import { useTranslation } from 'react-i18next';
import { readSize, type SizeRules } from '../../model/actions/size-field.ts';
import { exactBytes } from '../../model/format.ts';
import { Field } from './Field.tsx';
import { sizeProblemText } from './size-problem-text.ts';

interface SizeInputProps {
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly rules?: SizeRules;
  readonly testId?: string;
}

/** A text field for sizes ("3 MiB", "0x300000"): the exact bytes when valid, else what is wrong and what is allowed. */
export function SizeInput({ id, label, value, onChange, rules, testId }: SizeInputProps) {
  const { t } = useTranslation();
  const field = readSize(value, rules);
  const noteId = `${id}-note`;
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className="mono"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={!field.ok}
        aria-describedby={noteId}
        autoComplete="off"
        spellCheck={false}
        data-testid={testId}
      />
      <p
        id={noteId}
        className={field.ok ? 'act-note mono' : 'act-note act-invalid'}
        aria-live="polite"
        data-testid={testId === undefined ? undefined : `${testId}-note`}
      >
        {field.ok ? t('actions.size.exact', { bytes: exactBytes(field.bytes).replace(/ B$/, '') }) : sizeProblemText(t, field.problem)}
      </p>
    </Field>
  );
}
