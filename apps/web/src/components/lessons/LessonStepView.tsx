import type { LessonStep } from '@pagelens/core';
import { useTranslation } from 'react-i18next';

interface LessonStepViewProps {
  readonly step: LessonStep;
  readonly index: number;
  readonly count: number;
  readonly met: boolean;
  readonly hints: number;
  readonly language: 'en' | 'zh';
  readonly onHint: () => void;
}

/** One step: its goal and whether the state meets it (live), hints on demand, and why (with rule IDs). */
export function LessonStepView({ step, index, count, met, hints, language, onHint }: LessonStepViewProps) {
  const { t } = useTranslation();
  const moreHints = hints < step.hints.length;
  return (
    <div className="lesson-step" data-testid="lesson-step" data-step={step.id} data-met={met}>
      <p className="muted lesson-small">{t('lessons.stepOf', { step: index + 1, count })}</p>
      <h3 className="lesson-goal-title">{t('lessons.goal')}</h3>
      <p className="lesson-goal">{step.goal[language]}</p>
      <p
        className={`lesson-status ${met ? 'lesson-met' : 'lesson-open'}`}
        role="status"
        aria-live="polite"
        data-testid="lesson-goal-status"
      >
        {met ? t('lessons.met') : t('lessons.notMet')}
      </p>
      {step.hints.slice(0, hints).map((hint, n) => (
        <p className="lesson-hint" key={hint.en} data-testid="lesson-hint">
          <strong>
            {t('lessons.hint')} {n + 1}:
          </strong>{' '}
          {hint[language]}
        </p>
      ))}
      <button type="button" className="link-button" onClick={onHint} disabled={!moreHints} data-testid="lesson-show-hint">
        {moreHints ? t(hints === 0 ? 'lessons.showHint' : 'lessons.nextHint') : t('lessons.noMoreHints')}
      </button>
      {/* Open by itself once the goal is met; before that, on request (it gives the answer away). */}
      <details className="lesson-why" open={met || undefined} key={`${step.id}-${met}`} data-testid="lesson-why">
        <summary>{t('lessons.why')}</summary>
        <p>{step.explanation[language]}</p>
        <p className="muted lesson-small">
          {t('lessons.rules')}: <span className="mono">{step.rules.join(', ')}</span>
        </p>
      </details>
    </div>
  );
}
