import type { CopyRecord, HostState, MemoryEvent } from '@pagelens/core';
import { useMemo, useRef } from 'react';
import { bufferAt } from '../../model/host-copies/buffer-rows.ts';
import { type CopyLayout, HostWaitIndex, layoutCopies, waitsUpTo } from '../../model/host-copies/copy-lanes.ts';
import { EventMarkIndex, marksUpTo } from '../../model/host-copies/event-marks.ts';
import { showsProcess } from '../../model/processes/process-filter.ts';
import { useTimeline } from '../../store/hooks.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

export interface CopyData {
  readonly copies: readonly CopyRecord[];
  readonly layout: CopyLayout;
  /** Copy index by copy id. */
  readonly indexById: ReadonlyMap<number, number>;
  /** The copy paths that occur (the legend lists those). */
  readonly paths: ReadonlySet<CopyRecord['path']>;
  /** Copy indices by start time (the order [ and ] step through). */
  readonly order: Int32Array;
  /** The selected copy's index, if a copy is selected and exists at the cursor. */
  readonly selected: number | undefined;
  /** Copies touching the selected host buffer. */
  readonly relatedCopies: ReadonlySet<number>;
  /** Host buffers the selected copy reads or writes. */
  readonly relatedBuffers: ReadonlySet<number>;
  /** Object id of the selected aclrtEvent, if one is selected. */
  readonly selectedEvent: number | undefined;
}

const EMPTY: ReadonlySet<number> = new Set();
const NO_EVENTS: readonly MemoryEvent[] = [];

function touches(copy: CopyRecord, buffer: { addr: number; size: number; pid: number }): boolean {
  const inside = (at: number) => at >= buffer.addr && at < buffer.addr + Math.max(1, buffer.size);
  return copy.pid === buffer.pid && (inside(copy.src) || inside(copy.dst));
}

/**
 * The copy timeline's data at the time cursor: lanes, host waits, lookup tables, and what the
 * current selection relates to. The cursor state is mutable while live; copies only ever append,
 * so their count, the live stream ids and the wait count say when the lanes must be laid out again
 * (a storm of allocations does not re-lay out the copies).
 */
export function useCopyData(state: HostState): CopyData {
  const timeline = useTimeline();
  const selection = useAppStore((s) => s.selection);
  const filter = useAppStore(selectProcessFilter);
  const waitIndex = useRef(new HostWaitIndex());
  const markIndex = useRef(new EventMarkIndex());
  const seq = state.seq;
  const events = timeline?.events ?? NO_EVENTS;
  // Incremental: reads only the events that arrived since the last render.
  const waitCount = waitsUpTo(waitIndex.current.update(events), seq).length;
  const markCount = marksUpTo(markIndex.current.update(events), seq).length;
  const copyCount = state.copies.length;
  // Streams are few: their ids say whether one was created or destroyed.
  const streamKey = [...state.streams.keys()].join(',');
  const base = useMemo(() => {
    void copyCount;
    void streamKey;
    void waitCount;
    void markCount;
    const waits = waitsUpTo(waitIndex.current.update(events), state.seq);
    const marks = marksUpTo(markIndex.current.update(events), state.seq);
    const copies = state.copies;
    // Indices stay those of state.copies; the filter leaves the hidden copies out of the lanes, the legend and the [ ] order.
    const layout = layoutCopies(copies, state.streams, waits, marks, filter);
    const indexById = new Map<number, number>();
    const paths = new Set<CopyRecord['path']>();
    const shown: number[] = [];
    copies.forEach((copy, index) => {
      indexById.set(copy.id, index);
      if (!showsProcess(filter, copy.pid)) return;
      paths.add(copy.path);
      shown.push(index);
    });
    const order = Int32Array.from(shown).sort((a, b) => (copies[a]?.start ?? 0) - (copies[b]?.start ?? 0) || a - b);
    return { copies, layout, indexById, order, paths };
  }, [state, events, copyCount, streamKey, waitCount, markCount, filter]);

  const related = useMemo(() => {
    void seq;
    const selected = selection?.kind === 'copy' ? base.indexById.get(selection.id) : undefined;
    const relatedCopies = new Set<number>();
    const relatedBuffers = new Set<number>();
    if (selection?.kind === 'host') {
      const buffer = state.hostBuffers.get(selection.id);
      if (buffer !== undefined) {
        base.copies.forEach((copy, index) => {
          if (touches(copy, buffer)) relatedCopies.add(index);
        });
      }
    }
    const copy = selected === undefined ? undefined : base.copies[selected];
    if (copy !== undefined) {
      for (const at of [copy.src, copy.dst]) {
        const buffer = bufferAt(state, copy.pid, at);
        if (buffer !== undefined) relatedBuffers.add(buffer.id);
      }
    }
    return {
      selected,
      selectedEvent: selection?.kind === 'event' ? selection.id : undefined,
      relatedCopies: relatedCopies.size === 0 ? EMPTY : relatedCopies,
      relatedBuffers: relatedBuffers.size === 0 ? EMPTY : relatedBuffers,
    };
  }, [base, selection, state, seq]);

  return { ...base, ...related };
}
