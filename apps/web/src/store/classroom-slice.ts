import type { StateCreator } from 'zustand';

/** Where a guided lesson is: which lesson, and which of its steps (0-based). */
export interface LessonPosition {
  readonly lessonId: string;
  readonly step: number;
}

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
}

export const createClassroomSlice: StateCreator<ClassroomSlice> = (set) => ({
  ownLesson: null,
  setOwnLesson: (position) => set({ ownLesson: position }),
  driverLesson: null,
  receiveDriverLesson: (position) => set({ driverLesson: position }),
});
