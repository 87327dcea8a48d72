import type { MemoryEvent } from '../model/events.ts';
import type { HostState } from '../model/state.ts';
import type { LocalizedText } from '../scenarios/scenario.ts';

/**
 * What a lesson's goals are checked against: the host state and the events that built it since the
 * host was last reset (the web store's timeline holds both). Goals read the events for what
 * happened (an allocation that fell back stays a fact after it is freed) and the state for what
 * the device is (its profile, its TLB geometry), so a goal once met stays met until a host reset.
 */
export interface LessonWorld {
  readonly state: HostState;
  readonly events: readonly MemoryEvent[];
}

/** A pure test of the world: true once the step's goal is reached. */
export type Goal = (world: LessonWorld) => boolean;

export interface LessonStep {
  /** Unique within its lesson. */
  readonly id: string;
  /** What to do, as the student reads it. */
  readonly goal: LocalizedText;
  /** Given one at a time, on demand; the last one says how exactly. */
  readonly hints: readonly LocalizedText[];
  /** Why it came out this way, with the numbers of the default profile. */
  readonly explanation: LocalizedText;
  /** RULES.md IDs the explanation cites, in the order it cites them. */
  readonly rules: readonly string[];
  /** A built-in scenario (scenarios/index.ts) the step opens in the playground. */
  readonly scenario?: string;
  readonly met: Goal;
}

export interface Lesson {
  readonly id: string;
  readonly title: LocalizedText;
  readonly summary: LocalizedText;
  /**
   * The scenario whose host the lesson starts from: a fresh host of that scenario's kind, so that
   * nothing run before can make a goal come out backwards.
   */
  readonly startsFrom: string;
  readonly steps: readonly LessonStep[];
}
