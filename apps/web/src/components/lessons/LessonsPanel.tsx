import { LESSONS, type Lesson, lessonById, scenarioById } from '@pagelens/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { docFromScenario } from '../../model/playground/playground-doc.ts';
import type { LessonPosition } from '../../store/classroom-slice.ts';
import { selectIsDriver } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useStoreApi } from '../../store/useStoreApi.ts';
import { usePlaygroundController } from '../playground/usePlayground.ts';
import { FreshHost } from './FreshHost.tsx';
import { LessonStepView } from './LessonStepView.tsx';
import { jumpWouldMove, type PanelAction, panelReducer, publishedPosition, trainerNote } from './lesson-panel-model.ts';
import { useLessonGoals } from './useLessonGoals.ts';
import './lessons.css';

function samePosition(a: LessonPosition | null, b: LessonPosition | null): boolean {
  return a === b || (a !== null && b !== null && a.lessonId === b.lessonId && a.step === b.step);
}

/**
 * The guided lessons, a panel toggled with Shift+L (in the right column, or above the code in the
 * narrow split; its state is the store's, so it survives the move): pick a lesson, follow its
 * steps while their goals tick from the live state. A driver can start a lesson for all viewers
 * (its position goes out as `ownLesson`); a viewer's panel opens it and shows the trainer's step.
 */
export function LessonsPanel() {
  const { t } = useTranslation();
  const store = useStoreApi();
  const state = useAppStore((app) => app.lessonPanel);
  const dispatch = useCallback(
    (action: PanelAction) => {
      const app = store.getState();
      app.setLessonPanel(panelReducer(app.lessonPanel, action));
    },
    [store],
  );
  const driver = useAppStore(selectIsDriver);
  const ownLesson = useAppStore((app) => app.ownLesson);
  const setOwnLesson = useAppStore((app) => app.setOwnLesson);
  const driverLesson = useAppStore((app) => app.driverLesson);
  const picker = useRef<HTMLSelectElement>(null);
  useShortcut({ key: 'L', shift: true, label: 'lessons.keys.toggle', group: 'lessons.keys.group' }, () => dispatch({ kind: 'toggle' }));

  // The driver's position goes out only while teaching; the follow channel carries it to viewers.
  const published = publishedPosition(state, driver);
  useEffect(() => {
    if (!samePosition(published, ownLesson)) setOwnLesson(published);
  }, [published, ownLesson, setOwnLesson]);

  // What the trainer published, as this viewer hears it (once: the panel may be remounted by a layout change).
  useEffect(() => {
    const app = store.getState();
    const previous = app.lessonPanelHeard;
    if (samePosition(previous, driverLesson)) return;
    app.setLessonPanel(panelReducer(app.lessonPanel, { kind: 'driverPublished', previous, next: driverLesson }), driverLesson);
  }, [driverLesson, store]);

  useEffect(() => {
    if (state.open && state.position === null) picker.current?.focus();
  }, [state.open, state.position]);

  if (!state.open) return null;
  const lesson = state.position === null ? undefined : lessonById(state.position.lessonId);
  return (
    <section className="panel lessons-panel" data-testid="lessons" aria-labelledby="lessons-title" data-lesson={lesson?.id}>
      <header className="lessons-head">
        <h2 id="lessons-title" className="section-title">
          {t('lessons.title')}
        </h2>
        <button
          type="button"
          className="lessons-close"
          onClick={() => dispatch({ kind: 'close' })}
          title={t('lessons.close')}
          aria-label={t('lessons.close')}
        >
          ×
        </button>
      </header>
      <TrainerNote state={state} driverLesson={driverLesson} driver={driver} dispatch={dispatch} />
      <label className="lessons-pick">
        <span>{t('lessons.pick')}</span>
        <select
          ref={picker}
          value={lesson?.id ?? ''}
          onChange={(event) => dispatch({ kind: 'choose', lessonId: event.target.value })}
          data-testid="lesson-pick"
        >
          {lesson === undefined && <option value="">{t('lessons.pickNone')}</option>}
          <LessonOptions />
        </select>
      </label>
      {lesson === undefined || state.position === null ? (
        <p className="muted lesson-small">{t('lessons.intro')}</p>
      ) : (
        <LessonBody lesson={lesson} step={state.position.step} state={state} driver={driver} dispatch={dispatch} />
      )}
    </section>
  );
}

function LessonOptions() {
  const { i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  return (
    <>
      {LESSONS.map((item, index) => (
        <option key={item.id} value={item.id}>
          {index + 1}. {item.title[language]}
        </option>
      ))}
    </>
  );
}

interface BodyProps {
  readonly lesson: Lesson;
  readonly step: number;
  readonly state: ReturnType<typeof panelReducer>;
  readonly driver: boolean;
  readonly dispatch: (action: PanelAction) => void;
}

function LessonBody({ lesson, step, state, driver, dispatch }: BodyProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const { met: goals, version: goalsVersion } = useLessonGoals(lesson);
  const current = lesson.steps[step];
  const start = scenarioById(lesson.startsFrom);
  if (current === undefined || start === undefined) return null;
  return (
    <>
      <p className="lesson-small">{lesson.summary[language]}</p>
      <p className="muted lesson-small">{t('lessons.startsFrom', { name: start.title[language] })}</p>
      <div className="lessons-row">
        <FreshHost host={start.host} />
        {driver &&
          (state.teaching ? (
            <button type="button" onClick={() => dispatch({ kind: 'stopForAll' })} data-testid="lesson-stop-all">
              {t('lessons.stopForAll')}
            </button>
          ) : (
            <button
              type="button"
              onClick={() => dispatch({ kind: 'startForAll' })}
              title={t('lessons.startForAllHint')}
              data-testid="lesson-start-all"
            >
              {t('lessons.startForAll')}
            </button>
          ))}
      </div>
      {driver && state.teaching && (
        <p className="lesson-small lesson-teaching" data-testid="lesson-teaching">
          {t('lessons.teaching')}
        </p>
      )}
      <ol className="lesson-steps" aria-label={t('lessons.stepsLabel')} data-testid="lesson-steps" data-version={goalsVersion}>
        {lesson.steps.map((item, index) => (
          <li key={item.id}>
            <button
              type="button"
              aria-current={index === step ? 'step' : undefined}
              onClick={() => dispatch({ kind: 'goTo', step: index })}
              data-testid={`lesson-chip-${item.id}`}
              data-met={goals[index] === true}
              title={item.goal[language]}
            >
              {t('lessons.stepChip', { step: index + 1, state: goals[index] === true ? '✓' : '·' })}
            </button>
          </li>
        ))}
      </ol>
      <LessonStepView
        step={current}
        index={step}
        count={lesson.steps.length}
        met={goals[step] === true}
        hints={state.hints}
        language={language}
        onHint={() => dispatch({ kind: 'hint' })}
      />
      {current.scenario !== undefined && <OpenScenario id={current.scenario} />}
      <div className="lessons-row">
        <button type="button" onClick={() => dispatch({ kind: 'move', by: -1 })} disabled={step === 0} data-testid="lesson-prev">
          {t('lessons.previous')}
        </button>
        <button
          type="button"
          className="act-primary"
          onClick={() => dispatch({ kind: 'move', by: 1 })}
          disabled={step === lesson.steps.length - 1}
          data-testid="lesson-next"
        >
          {t('lessons.next')}
        </button>
      </div>
      {goals.length > 0 && goals.every(Boolean) && (
        <p className="lesson-met lesson-small" data-testid="lesson-all-met">
          {t('lessons.allMet')}
        </p>
      )}
    </>
  );
}

/** Opens the step's scenario in the playground (refused while a run is under way: it would be lost). */
function OpenScenario({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const controller = usePlaygroundController();
  const setView = useAppStore((app) => app.setView);
  const [busy, setBusy] = useState(false);
  const scenario = scenarioById(id);
  if (scenario === undefined) return null;
  const open = () => {
    const opened = controller.state.source.kind === 'builtin' && controller.state.source.id === id && !controller.editable;
    // Already open and running: just show it. Otherwise open it afresh.
    const ok = opened || controller.open(docFromScenario(scenario, language), { kind: 'builtin', id });
    setBusy(!ok);
    if (ok) setView('playground');
  };
  return (
    <>
      <button type="button" className="link-button lesson-scenario" onClick={open} data-testid="lesson-open-scenario">
        {t('lessons.openScenario', { name: scenario.title[language] })}
      </button>
      {busy && (
        <p className="act-warn lesson-small" role="alert">
          {t('lessons.scenarioBusy')}
        </p>
      )}
    </>
  );
}

interface TrainerNoteProps {
  readonly state: ReturnType<typeof panelReducer>;
  readonly driverLesson: LessonPosition | null;
  readonly driver: boolean;
  readonly dispatch: (action: PanelAction) => void;
}

/** For a viewer: where the trainer is, and a jump there when this panel shows something else. */
function TrainerNote({ state, driverLesson, driver, dispatch }: TrainerNoteProps) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'zh' ? 'zh' : 'en';
  const note = trainerNote(driverLesson, driver);
  if (note === undefined || driverLesson === null) return null;
  return (
    <div className="lesson-trainer" data-testid="lesson-trainer" data-step={note.step + 1}>
      <p className="lesson-small">{t('lessons.trainerOn', { step: note.step + 1, lesson: note.lesson.title[language] })}</p>
      {state.following && !jumpWouldMove(state, driverLesson) ? (
        <p className="muted lesson-small">{t('lessons.following')}</p>
      ) : (
        <button type="button" onClick={() => dispatch({ kind: 'jumpToDriver', driver: driverLesson })} data-testid="lesson-jump">
          {t('lessons.jump')}
        </button>
      )}
    </div>
  );
}
