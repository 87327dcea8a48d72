import { goalsMet, type Lesson } from '@pagelens/core';
import { useMemo } from 'react';
import { selectTimeline, selectVersion } from '../../store/replica-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/**
 * Which of the lesson's goals are met on the live replica: its state and the events since the last
 * host reset. Recomputed when the views are told of new events (`version`), not per event; goals are
 * checked on the live state whatever the time cursor shows, since they say what the student did.
 */
export function useLessonGoals(lesson: Lesson | undefined): readonly boolean[] {
  const timeline = useAppStore(selectTimeline);
  const version = useAppStore(selectVersion);
  return useMemo(() => {
    if (lesson === undefined) return [];
    if (timeline === undefined) return lesson.steps.map(() => false);
    // `version` stands for the timeline's content, which changes in place.
    void version;
    return goalsMet(lesson, { state: timeline.live, events: timeline.events });
  }, [lesson, timeline, version]);
}
