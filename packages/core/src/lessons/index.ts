import { scenarioById } from '../scenarios/index.ts';
import type { Lesson, LessonStep, LessonWorld } from './lesson.ts';
import { PINNED_COPIES, VMM_LIFECYCLE } from './lessons-host-vmm.ts';
import { FRAGMENTATION, TLB_REACH } from './lessons-pages.ts';
import { PAGE_POLICIES, ROUNDING_WASTE } from './lessons-policies.ts';

export type { Goal, Lesson, LessonStep, LessonWorld } from './lesson.ts';

/** The guided lessons in the order a workshop takes them. */
export const LESSONS: readonly Lesson[] = [PAGE_POLICIES, ROUNDING_WASTE, FRAGMENTATION, TLB_REACH, PINNED_COPIES, VMM_LIFECYCLE];

export function lessonById(id: string): Lesson | undefined {
  return LESSONS.find((lesson) => lesson.id === id);
}

/** Which of the lesson's steps have their goal met in this world, in step order. */
export function goalsMet(lesson: Lesson, world: LessonWorld): boolean[] {
  return lesson.steps.map((step) => step.met(world));
}

/** The first step whose goal is not met yet; the step count when all are. */
export function firstOpenStep(lesson: Lesson, world: LessonWorld): number {
  const index = lesson.steps.findIndex((step) => !step.met(world));
  return index === -1 ? lesson.steps.length : index;
}

/** Problems with the table itself: unknown scenarios, repeated ids. Empty when it is sound. */
export function lessonTableProblems(lessons: readonly Lesson[] = LESSONS): string[] {
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const lesson of lessons) {
    if (ids.has(lesson.id)) problems.push(`lesson ${lesson.id} appears twice`);
    ids.add(lesson.id);
    if (scenarioById(lesson.startsFrom) === undefined) problems.push(`${lesson.id} starts from an unknown scenario ${lesson.startsFrom}`);
    const stepIds = new Set<string>();
    for (const step of lesson.steps) problems.push(...stepProblems(lesson, step, stepIds));
  }
  return problems;
}

function stepProblems(lesson: Lesson, step: LessonStep, seen: Set<string>): string[] {
  const problems: string[] = [];
  const where = `${lesson.id}/${step.id}`;
  if (seen.has(step.id)) problems.push(`${where} appears twice`);
  seen.add(step.id);
  if (step.scenario !== undefined && scenarioById(step.scenario) === undefined)
    problems.push(`${where} opens an unknown scenario ${step.scenario}`);
  for (const rule of step.rules) {
    if (!step.explanation.en.includes(rule) || !step.explanation.zh.includes(rule))
      problems.push(`${where} lists ${rule} but does not cite it`);
  }
  return problems;
}
