import { goalsMet, type Lesson } from '@pagelens/core';
import { useMemo } from 'react';
import { useThrottled } from '../../hooks/useThrottled.ts';
import { selectTimeline, selectVersion } from '../../store/replica-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/**
 * Goals read every event held (up to the timeline's cap): under a stream of events they are checked
 * a few times a second, not per batch. A quiet change (a student's call) still shows at once.
 */
const CHECK_MS = 250;

/**
 * Which of the lesson's goals are met on the live replica: its state and the events since the last
 * host reset. Goals are checked on the live state whatever the time cursor shows, since they say
 * what the student has done.
 */
export function useLessonGoals(lesson: Lesson | undefined): { readonly met: readonly boolean[]; readonly version: number } {
  const timeline = useAppStore(selectTimeline);
  const version = useThrottled(useAppStore(selectVersion), CHECK_MS);
  const met = useMemo(() => {
    if (lesson === undefined) return [];
    if (timeline === undefined) return lesson.steps.map(() => false);
    // `version` stands for the timeline's content, which changes in place.
    void version;
    return goalsMet(lesson, { state: timeline.live, events: timeline.events });
  }, [lesson, timeline, version]);
  // The replica version the goals were read at, so a reader (a test) can tell a stale answer from a current one.
  return { met, version };
}
