import type { MemoryEvent } from '@pagelens/core';
import { callReasonsOf } from '../../model/acl/observed-reasons.ts';
import type { Inspection } from '../../model/inspector/fact.ts';
import { callInspection, existsIn, inspectObject } from '../../model/inspector/inspect.ts';
import { type Presence, presenceFromStory, type StoryEntry, storyEntries } from '../../model/inspector/story.ts';
import { callRow } from '../../model/log/call-rows.ts';
import { effectsOfCall, indexOfSeq, type Target } from '../../model/log/effects.ts';
import { useCursorSeq, useCursorState, useFormat, useTimeline } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** What a call made that is worth showing inside the call's own inspector. */
const MAKERS = new Set<MemoryEvent['kind']>([
  'alloc',
  'physAlloc',
  'reserve',
  'map',
  'hostAlloc',
  'import',
  'copy',
  'streamCreate',
  'contextCreate',
  'eventCreate',
]);

export interface InspectorModel {
  readonly inspection: Inspection | undefined;
  readonly presence: Presence;
  readonly story: readonly StoryEntry[];
  /** For a call: the first object it made, inspected at the cursor. */
  readonly made?: { readonly target: Target; readonly inspection: Inspection };
}

/** Everything the inspector shows for `target` at the time cursor. */
export function useInspection(target: Target): InspectorModel {
  const timeline = useTimeline();
  const state = useCursorState();
  const cursorSeq = useCursorSeq();
  const prefs = useFormat();
  const device = useAppStore((store) => store.device);
  const provenance = useAppStore((store) => store.session?.host.provenance);
  if (timeline === undefined || state === undefined) return { inspection: undefined, presence: { status: 'unknown' }, story: [] };
  const events = timeline.events;
  const context = {
    prefs,
    device,
    copyReasons: (id: number) => {
      const copy = timeline.story(id).find((event) => event.kind === 'copy');
      return copy?.kind === 'copy' ? copy.reasons : [];
    },
    observedReasons: (createdSeq: number) => callReasonsOf((seq) => timeline.eventAtSeq(seq), createdSeq),
    ...(provenance === undefined ? {} : { provenance }),
  };

  if (target.kind === 'call') {
    const index = indexOfSeq(events, target.id);
    const row = callRow(
      events,
      index,
      timeline.live.devices.map((entry) => entry.profile),
    );
    if (row === undefined) return { inspection: undefined, presence: { status: 'unknown' }, story: [] };
    const story = storyEntries([row.call, ...effectsOfCall(events, index)], events, prefs);
    const presence: Presence = target.id <= cursorSeq ? { status: 'present' } : { status: 'future', seq: target.id };
    const maker = effectsOfCall(events, index).find((event) => MAKERS.has(event.kind));
    const made = maker === undefined ? undefined : story.find((entry) => entry.seq === maker.seq)?.target;
    const madeInspection = made === undefined ? undefined : inspectObject(made, state, context);
    return {
      inspection: callInspection(row, prefs),
      presence,
      story,
      ...(made === undefined || madeInspection === undefined ? {} : { made: { target: made, inspection: madeInspection } }),
    };
  }

  if (target.kind === 'frame') {
    const inspection = inspectObject(target, state, context);
    return { inspection, presence: inspection === undefined ? { status: 'unknown' } : { status: 'present' }, story: [] };
  }

  const storyEvents = timeline.story(target.id);
  const inspection = inspectObject(target, state, context);
  return {
    inspection,
    presence: presenceFromStory(target.id, inspection !== undefined && existsIn(target, state), storyEvents, cursorSeq),
    story: storyEntries(storyEvents, events, prefs),
  };
}
