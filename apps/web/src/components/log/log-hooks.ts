import { type RefObject, useEffect, useMemo, useState } from 'react';
import type { Timeline } from '../../model/timeline.ts';
import type { ObjectRef } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

/** The element's inner height in CSS px, kept current as it resizes. */
export function useViewportHeight(ref: RefObject<HTMLElement | null>, fallback = 400): number {
  const [height, setHeight] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (element === null) return undefined;
    const measure = () => setHeight(element.clientHeight || fallback);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, fallback]);
  return height;
}

const NONE: ReadonlySet<number> = new Set();

/** Seqs of the calls in the selected object's story, so the log can mark them. */
export function useStoryCalls(timeline: Timeline | undefined, selection: ObjectRef | undefined): ReadonlySet<number> {
  const version = useAppStore((state) => state.version);
  return useMemo(() => {
    void version;
    if (timeline === undefined || selection === undefined || selection.kind === 'call' || selection.kind === 'frame') return NONE;
    return new Set(
      timeline
        .story(selection.id)
        .filter((event) => event.kind === 'call')
        .map((event) => event.seq),
    );
  }, [timeline, selection, version]);
}
