import type { Diagnostic, ExecError } from '@pagelens/core';
import { useTranslation } from 'react-i18next';

interface ProblemsPanelProps {
  /** Compiler errors and warnings of the code and of the setup (notes stay in the gutter). */
  readonly code: readonly Diagnostic[];
  readonly setup: readonly Diagnostic[];
  readonly error: ExecError | undefined;
  readonly canEdit: boolean;
  readonly onGoTo: (line: number, column: number, inSetup: boolean) => void;
  readonly onAddInput: (name: string) => void;
}

const SHOWN = 8;

interface Row {
  readonly key: string;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly inSetup: boolean;
  readonly undeclared: string | undefined;
}

/** Compile diagnostics and the execution's error, each at line:column, with "add as input" for undeclared names. */
export function ProblemsPanel({ code, setup, error, canEdit, onGoTo, onAddInput }: ProblemsPanelProps) {
  const { t } = useTranslation();
  const rows: Row[] = [];
  const fromDiagnostic = (d: Diagnostic, inSetup: boolean, index: number): Row | undefined =>
    d.severity === 'note'
      ? undefined
      : {
          key: `${inSetup ? 's' : 'c'}${index}`,
          severity: d.severity,
          message: d.message,
          line: d.line,
          column: d.column,
          inSetup,
          undeclared: d.kind === 'undeclared' ? d.name : undefined,
        };
  if (error !== undefined) {
    rows.push({
      key: 'run',
      severity: 'error',
      message: error.message,
      line: error.line,
      column: error.column,
      inSetup: error.inSetup === true,
      undeclared: error.kind === 'undeclared' ? error.name : undefined,
    });
  }
  for (const [index, d] of setup.entries()) {
    const row = fromDiagnostic(d, true, index);
    if (row !== undefined) rows.push(row);
  }
  for (const [index, d] of code.entries()) {
    const row = fromDiagnostic(d, false, index);
    if (row !== undefined) rows.push(row);
  }
  if (rows.length === 0) return null;
  const offered = new Set<string>();
  return (
    <section className="pl-problems" aria-label={t('playground.problems.title')} data-testid="pl-problems">
      <ul>
        {rows.slice(0, SHOWN).map((row) => {
          const offer = row.undeclared !== undefined && !offered.has(row.undeclared) ? row.undeclared : undefined;
          if (offer !== undefined) offered.add(offer);
          return (
            <li key={row.key} className={`pl-problem pl-problem-${row.severity}`} data-testid="pl-problem">
              {row.line > 0 ? (
                <button type="button" className="pl-link mono" onClick={() => onGoTo(row.line, row.column, row.inSetup)}>
                  {t(row.inSetup ? 'playground.problems.atSetup' : 'playground.problems.at', { line: row.line, column: row.column })}
                </button>
              ) : null}
              <span className="pl-problem-message">{row.message}</span>
              {offer !== undefined && (
                <button type="button" disabled={!canEdit} onClick={() => onAddInput(offer)} data-testid="pl-add-input">
                  {t('playground.problems.addInput', { name: offer })}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {rows.length > SHOWN && <p className="muted">{t('playground.problems.more', { count: rows.length - SHOWN })}</p>}
    </section>
  );
}
