import type { StateCreator } from 'zustand';

/** Where a guided lesson is: which lesson, and which of its steps (0-based). */
export interface LessonPosition {
  readonly lessonId: string;
  readonly step: number;
}

/**
 * What the lessons panel shows (components/lessons/lesson-panel-model.ts moves it). Kept in the
 * store, not in the panel, because the panel moves between layouts (the right column, above the code
 * in the narrow split): a remounted panel must show the same lesson and step, not start closed.
 */
export interface LessonPanelState {
  readonly open: boolean;
  /** The lesson and step on screen; null before one is chosen. */
  readonly position: LessonPosition | null;
  /** Hints shown for the step on screen. */
  readonly hints: number;
  /** A viewer whose panel moves with the trainer's published step. */
  readonly following: boolean;
  /** A driver whose position viewers see (after "Start for all"). */
  readonly teaching: boolean;
}

export const LESSON_PANEL_CLOSED: LessonPanelState = { open: false, position: null, hints: 0, following: false, teaching: false };

/**
 * The lesson a workshop is on, seen from both sides of the session: the driver's own position (what
 * the follow channel publishes to viewers) and the position the driver last published (what a viewer
 * shows). Kept apart so a viewer exploring on their own still sees where the trainer is.
 */
export interface ClassroomSlice {
  readonly ownLesson: LessonPosition | null;
  setOwnLesson(position: LessonPosition | null): void;
  readonly driverLesson: LessonPosition | null;
  receiveDriverLesson(position: LessonPosition | null): void;
  readonly lessonPanel: LessonPanelState;
  /** The trainer's position the panel last took in, so a remounted panel does not take it in twice. */
  readonly lessonPanelHeard: LessonPosition | null;
  setLessonPanel(panel: LessonPanelState, heard?: LessonPosition | null): void;
}

export const createClassroomSlice: StateCreator<ClassroomSlice> = (set) => ({
  ownLesson: null,
  setOwnLesson: (position) => set({ ownLesson: position }),
  driverLesson: null,
  receiveDriverLesson: (position) => set({ driverLesson: position }),
  lessonPanel: LESSON_PANEL_CLOSED,
  lessonPanelHeard: null,
  setLessonPanel: (panel, heard) => set(heard === undefined ? { lessonPanel: panel } : { lessonPanel: panel, lessonPanelHeard: heard }),
});
