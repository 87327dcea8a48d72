import { formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { PATTERN_KINDS, type PatternDraft, type PatternField, type PatternIssue, type PatternKind } from '../../model/tlb/pattern.ts';

/** The fields each pattern reads (AccessPattern in core). */
const FIELDS: Readonly<Record<PatternKind, readonly Exclude<PatternField, 'offsets' | 'accesses'>[]>> = {
  sequential: ['stride', 'passes'],
  strided: ['stride', 'count'],
  random: ['count', 'seed'],
  explicit: [],
};

interface PatternFormProps {
  readonly draft: PatternDraft;
  readonly issues: readonly PatternIssue[];
  readonly onChange: (draft: PatternDraft) => void;
}

/** Pattern kind and its fields; sizes take any parseSize syntax, counts take thousands separators. */
export function PatternForm({ draft, issues, onChange }: PatternFormProps) {
  const { t } = useTranslation();
  const bad = (field: PatternField) => issues.some((issue) => issue.field === field);
  return (
    <fieldset className="tlb-pattern">
      <legend>{t('tlb.sim.pattern')}</legend>
      <div className="tlb-kinds" role="radiogroup" aria-label={t('tlb.sim.pattern')}>
        {PATTERN_KINDS.map((kind) => (
          <label key={kind} className={draft.kind === kind ? 'tlb-kind active' : 'tlb-kind'}>
            <input
              type="radio"
              name="tlb-pattern-kind"
              value={kind}
              checked={draft.kind === kind}
              onChange={() => onChange({ ...draft, kind })}
              data-testid={`tlb-kind-${kind}`}
            />
            {t(`tlb.sim.kinds.${kind}`)}
          </label>
        ))}
      </div>
      <p className="tlb-note muted">{t(`tlb.sim.kindHelp.${draft.kind}`)}</p>
      {draft.kind === 'explicit' ? (
        <label className="tlb-field tlb-offsets">
          <span>{t('tlb.sim.fields.offsets')}</span>
          <textarea
            rows={4}
            value={draft.offsets}
            aria-invalid={bad('offsets')}
            className={bad('offsets') ? 'invalid' : undefined}
            placeholder="0, 4096, 0x2000, 1 MiB"
            spellCheck={false}
            onChange={(event) => onChange({ ...draft, offsets: event.target.value })}
            data-testid="tlb-field-offsets"
          />
        </label>
      ) : (
        <div className="tlb-fields">
          {FIELDS[draft.kind].map((field) => (
            <label key={field} className="tlb-field">
              <span>{t(`tlb.sim.fields.${field}`)}</span>
              <input
                value={draft[field]}
                aria-invalid={bad(field)}
                className={bad(field) ? 'invalid' : undefined}
                inputMode={field === 'stride' ? 'text' : 'numeric'}
                spellCheck={false}
                onChange={(event) => onChange({ ...draft, [field]: event.target.value })}
                data-testid={`tlb-field-${field}`}
              />
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** An issue in the current language, with its numbers formatted. */
export function usePatternIssueText(): (issue: PatternIssue) => string {
  const { t } = useTranslation();
  return (issue) => {
    const values: Record<string, string | number> = { ...issue.values };
    if (typeof issue.values.bytes === 'number') values.last = formatInteger(issue.values.bytes - 1);
    if (typeof issue.values.accesses === 'number') values.accesses = formatInteger(issue.values.accesses);
    if (typeof issue.values.max === 'number') values.max = formatInteger(issue.values.max);
    return t(`tlb.sim.errors.${issue.code}`, values);
  };
}
