import { stackMatcher, stackMatchSeqs } from '@pagelens/core';
import { type RefObject, useEffect, useMemo, useState } from 'react';
import type { CallFilter } from '../../model/log/call-filter.ts';
import type { Timeline } from '../../model/timeline.ts';
import type { ObjectRef } from '../../store/selection-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useBlockFrames } from '../import/useBlockFrames.ts';

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

/**
 * The recording's stack filter (the one the block lists use) as a log filter: the calls of the
 * blocks, on any device, whose stack holds the text. Undefined for a live session or no text.
 */
export function useStackFilter(): CallFilter['stack'] {
  const text = useAppStore((state) => state.stackFilter);
  const index = useAppStore((state) => state.importedBlocks);
  const framesOf = useBlockFrames();
  return useMemo(() => {
    if (index === undefined) return undefined;
    const matches = stackMatcher(text, framesOf);
    return matches === undefined ? undefined : { text: text.trim(), seqs: stackMatchSeqs(index, matches) };
  }, [index, text, framesOf]);
}
