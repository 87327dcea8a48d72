import { useTranslation } from 'react-i18next';
import { type Lesson, lessonExpectsOk, lessonsAvailable, type WizardState } from '../../model/actions/vmm-wizard.ts';
import { OutcomeView } from './OutcomeView.tsx';

/** Misuses worth trying at this point, each one call whose answer teaches a rule (VM-2, VM-6, VM-8). */
export function WizardLessons({ state, disabled, onRun }: { state: WizardState; disabled: boolean; onRun: (lesson: Lesson) => void }) {
  const { t } = useTranslation();
  const lessons = lessonsAvailable(state);
  if (lessons.length === 0 && state.lesson === undefined) return null;
  return (
    <section className="act-lessons" aria-label={t('actions.wizard.lessons.title')}>
      <p className="act-label">{t('actions.wizard.lessons.title')}</p>
      <ul>
        {lessons.map((lesson) => (
          <li key={lesson}>
            <button type="button" disabled={disabled} onClick={() => onRun(lesson)} data-testid={`lesson-${lesson}`}>
              {t(`actions.wizard.lessons.${lesson}`)}
            </button>{' '}
            <span className="muted act-small">
              {lessonExpectsOk(lesson) ? t('actions.wizard.lessons.expectOk') : t('actions.wizard.lessons.expectFail')}
            </span>
          </li>
        ))}
      </ul>
      {state.lesson !== undefined && (
        <div data-testid="lesson-result">
          <p className="act-label">{t('actions.wizard.lessons.result', { lesson: t(`actions.wizard.lessons.${state.lesson.lesson}`) })}</p>
          <OutcomeView outcome={{ id: 0, fn: state.lesson.record.fn, events: [], at: 0, ...state.lesson.record.result }} />
          <p className="act-note">
            {state.lesson.record.result.ok === lessonExpectsOk(state.lesson.lesson)
              ? t('actions.wizard.lessons.asExpected')
              : t('actions.wizard.lessons.unexpected')}
            {state.lesson.lesson === 'free-physical-while-mapped' &&
              state.lesson.record.result.ok &&
              ` ${t('actions.wizard.lessons.deferredNote')}`}
          </p>
        </div>
      )}
    </section>
  );
}
