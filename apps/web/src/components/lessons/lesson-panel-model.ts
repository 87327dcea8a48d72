import { type Lesson, lessonById } from '@pagelens/core';
import { LESSON_PANEL_CLOSED, type LessonPanelState, type LessonPosition } from '../../store/classroom-slice.ts';

/**
 * What the lessons panel shows and how it moves, as a pure reducer: the component renders it and
 * carries out the effects (publishing the driver's position, opening a scenario).
 */
/** The panel's state lives in the store (it survives the panel moving between layouts). */
export type PanelState = LessonPanelState;

export type PanelAction =
  | { readonly kind: 'toggle' }
  | { readonly kind: 'close' }
  | { readonly kind: 'choose'; readonly lessonId: string }
  | { readonly kind: 'goTo'; readonly step: number }
  | { readonly kind: 'move'; readonly by: 1 | -1 }
  | { readonly kind: 'hint' }
  | { readonly kind: 'startForAll' }
  | { readonly kind: 'stopForAll' }
  /** The trainer's position as a viewer last heard it, and what it was before. */
  | { readonly kind: 'driverPublished'; readonly previous: LessonPosition | null; readonly next: LessonPosition | null }
  | { readonly kind: 'jumpToDriver'; readonly driver: LessonPosition };

export const CLOSED: PanelState = LESSON_PANEL_CLOSED;

/** A position clamped into its lesson; null for a lesson the table does not have. */
export function validPosition(position: LessonPosition | null): LessonPosition | null {
  if (position === null) return null;
  const lesson = lessonById(position.lessonId);
  if (lesson === undefined) return null;
  const step = Math.min(Math.max(0, Math.floor(position.step)), lesson.steps.length - 1);
  return step === position.step ? position : { lessonId: position.lessonId, step };
}

function at(state: PanelState, position: LessonPosition | null, following: boolean): PanelState {
  const valid = validPosition(position);
  const sameStep = valid?.lessonId === state.position?.lessonId && valid?.step === state.position?.step;
  return { ...state, open: true, position: valid, hints: sameStep ? state.hints : 0, following };
}

export function panelReducer(state: PanelState, action: PanelAction): PanelState {
  switch (action.kind) {
    case 'toggle':
      return { ...state, open: !state.open };
    case 'close':
      return { ...state, open: false };
    case 'choose':
      return at(state, { lessonId: action.lessonId, step: 0 }, false);
    case 'goTo':
      return state.position === null ? state : at(state, { ...state.position, step: action.step }, false);
    case 'move':
      return state.position === null ? state : at(state, { ...state.position, step: state.position.step + action.by }, false);
    case 'hint': {
      const lesson = state.position === null ? undefined : lessonById(state.position.lessonId);
      const available = lesson?.steps[state.position?.step ?? 0]?.hints.length ?? 0;
      return { ...state, hints: Math.min(available, state.hints + 1) };
    }
    case 'startForAll':
      return state.position === null ? state : { ...state, teaching: true };
    case 'stopForAll':
      return { ...state, teaching: false };
    case 'driverPublished':
      return fromDriver(state, action.previous, action.next);
    case 'jumpToDriver':
      return at(state, action.driver, true);
  }
}

/**
 * A trainer starting a lesson for all opens it on every viewer's panel, at the trainer's step; after
 * that a following viewer moves with the trainer, and one who browsed away stays where they are.
 */
function fromDriver(state: PanelState, previous: LessonPosition | null, next: LessonPosition | null): PanelState {
  if (next === null || validPosition(next) === null) return { ...state, following: false };
  if (previous === null || previous.lessonId !== next.lessonId) return at(state, next, true);
  return state.following ? at(state, next, true) : state;
}

/** What a driver's panel publishes as its own lesson position: only while teaching. */
export function publishedPosition(state: PanelState, driver: boolean): LessonPosition | null {
  return driver && state.teaching ? state.position : null;
}

/** A viewer's note about the trainer: shown when the trainer is on a lesson step this panel is not showing. */
export function trainerNote(driverLesson: LessonPosition | null, driver: boolean): { lesson: Lesson; step: number } | undefined {
  if (driver || driverLesson === null) return undefined;
  const valid = validPosition(driverLesson);
  const lesson = valid === null ? undefined : lessonById(valid.lessonId);
  if (lesson === undefined || valid === null) return undefined;
  return { lesson, step: valid.step };
}

/** The trainer's note offers a jump only when it would change what is on screen. */
export function jumpWouldMove(state: PanelState, driverLesson: LessonPosition): boolean {
  return state.position?.lessonId !== driverLesson.lessonId || state.position.step !== driverLesson.step || !state.open;
}
