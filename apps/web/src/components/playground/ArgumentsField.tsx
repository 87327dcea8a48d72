import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { commandLine } from '../../model/playground/playground-doc.ts';

interface ArgumentsFieldProps {
  readonly args: string;
  /** Absent: shown read-only (a following viewer sees the driver's command line). */
  readonly onArgs?: (args: string) => void;
  readonly editable: boolean;
}

/** Whether the code's main takes a command line (`main(int argc, char** argv)`, `char* argv[]`). */
export function takesCommandLine(code: string): boolean {
  return /\bmain\s*\(\s*int\s+\w+\s*,\s*(?:const\s+)?char\s*\*/.test(code);
}

/** main's command line after ./main, with the argv it makes shown under it. */
export function ArgumentsField({ args, onArgs, editable }: ArgumentsFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const line = commandLine(args);
  const shown = line.argv.map((word) => (/[\s"'\\]/.test(word) || word === '' ? JSON.stringify(word) : word)).join(' ');
  const readOnly = onArgs === undefined;
  return (
    <div className="pl-args" data-testid="pl-args">
      <label htmlFor={`${id}-args`} className="section-title">
        {t('playground.args.label')}
      </label>
      <span className="mono muted pl-args-program" aria-hidden="true">
        ./main
      </span>
      <input
        id={`${id}-args`}
        className="mono pl-args-input"
        value={args}
        readOnly={readOnly}
        disabled={!readOnly && !editable}
        spellCheck={false}
        autoComplete="off"
        aria-describedby={`${id}-help ${id}-argv`}
        aria-invalid={line.unclosedQuote !== undefined}
        onChange={(event) => onArgs?.(event.currentTarget.value)}
        data-testid="pl-args-input"
      />
      <p id={`${id}-help`} className="muted pl-help">
        {readOnly ? t('playground.args.readOnly') : t('playground.args.help')}
      </p>
      <p id={`${id}-argv`} className="mono muted pl-args-argv" data-testid="pl-args-argv">
        {t('playground.args.argv', { argv: shown })}
      </p>
      {line.unclosedQuote !== undefined && (
        <p className="pl-args-problem" role="alert">
          {t('playground.args.unclosed', { column: line.unclosedQuote })}
        </p>
      )}
    </div>
  );
}
