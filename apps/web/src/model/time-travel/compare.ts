import type { MemoryEvent, PageClass } from '@pagelens/core';
import type { TargetKind } from '../log/effects.ts';
import { lastIndexAtOrBefore } from '../log/effects.ts';

/** One object that exists at one end of the compared range and not at the other. */
export interface CompareItem {
  readonly kind: TargetKind;
  readonly id: number;
  readonly device?: number;
  /** The event that made or ended it inside the range. */
  readonly seq: number;
  /** What made it: 'alloc', 'physAlloc', 'reserve', 'map', 'hostAlloc', 'import'. */
  readonly made: MemoryEvent['kind'] | undefined;
  readonly fn?: string;
  readonly addr?: number;
  readonly size?: number;
  readonly pageClass?: PageClass;
  /** Bytes of device memory held (whole pages, DM-11); 0 for objects that hold none. */
  readonly occupied: number;
}

export interface ClassBytes {
  readonly added: number;
  readonly removed: number;
}

/** What changed between two points in time, net: transient objects made and ended in between are only counted. */
export interface CompareResult {
  readonly from: number;
  readonly to: number;
  readonly allocated: readonly CompareItem[];
  readonly freed: readonly CompareItem[];
  readonly mapped: readonly CompareItem[];
  readonly unmapped: readonly CompareItem[];
  /** Objects made and ended inside the range (they exist at neither end). */
  readonly transient: number;
  readonly bytes: Readonly<Record<PageClass, ClassBytes>>;
  readonly events: number;
  readonly calls: number;
}

type Made = Extract<MemoryEvent, { kind: 'alloc' | 'physAlloc' | 'reserve' | 'map' | 'hostAlloc' | 'import' }>;

function isMade(event: MemoryEvent): event is Made {
  return ['alloc', 'physAlloc', 'reserve', 'map', 'hostAlloc', 'import'].includes(event.kind);
}

/** The object an event ends, by kind; undefined for events that end nothing. */
function ended(event: MemoryEvent): TargetKind | undefined {
  switch (event.kind) {
    case 'free':
      return 'allocation';
    case 'physFree':
      return 'handle';
    case 'release':
      return 'reservation';
    case 'unmap':
      return 'mapping';
    case 'hostFree':
      return 'host';
    default:
      return undefined;
  }
}

function kindOf(event: Made): TargetKind {
  switch (event.kind) {
    case 'alloc':
      return 'allocation';
    case 'physAlloc':
    case 'import':
      return 'handle';
    case 'reserve':
      return 'reservation';
    case 'map':
      return 'mapping';
    case 'hostAlloc':
      return 'host';
  }
}

/** Device bytes a creation holds: allocations and physical memory own pages; the rest own none. */
function occupiedBy(event: Made | undefined): { pageClass?: PageClass; occupied: number } {
  if (event?.kind === 'alloc' || event?.kind === 'physAlloc') return { pageClass: event.pageClass, occupied: event.pages * event.pageSize };
  return { occupied: 0 };
}

function item(kind: TargetKind, id: number, seq: number, made: Made | undefined): CompareItem {
  const held = occupiedBy(made);
  return {
    kind,
    id,
    seq,
    made: made?.kind,
    ...(made !== undefined && 'device' in made ? { device: made.device } : {}),
    ...(made !== undefined && 'fn' in made ? { fn: made.fn } : {}),
    ...(made !== undefined && 'addr' in made ? { addr: made.addr } : {}),
    ...(made !== undefined && 'size' in made ? { size: made.size } : {}),
    ...held,
  };
}

/**
 * Compares the state after seq `a` with the state after seq `b` (either order) from the events in
 * between, without rebuilding either state. `creation(id)` finds the event that made an object
 * before the range (the timeline's story), to describe what was freed.
 */
export function compareRange(
  events: readonly MemoryEvent[],
  a: number,
  b: number,
  creation: (id: number) => MemoryEvent | undefined,
): CompareResult {
  const from = Math.min(a, b);
  const to = Math.max(a, b);
  const made = new Map<number, Made>();
  const endedIds = new Map<number, { kind: TargetKind; seq: number }>();
  let transient = 0;
  let calls = 0;
  const bytes: Record<PageClass, { added: number; removed: number }> = {
    normal: { added: 0, removed: 0 },
    huge: { added: 0, removed: 0 },
    giant: { added: 0, removed: 0 },
  };
  const start = lastIndexAtOrBefore(events, from) + 1;
  const end = lastIndexAtOrBefore(events, to) + 1;
  for (let index = start; index < end; index += 1) {
    const event = events[index];
    if (event === undefined) continue;
    if (event.kind === 'call') calls += 1;
    if (isMade(event)) {
      made.set(event.id, event);
      const held = occupiedBy(event);
      if (held.pageClass !== undefined) bytes[held.pageClass].added += held.occupied;
      continue;
    }
    // Device bytes come back when the pages do: at free for allocations, at physRelease for VMM memory (VM-8).
    if (event.kind === 'free' || event.kind === 'physRelease') {
      const source = made.get(event.id) ?? creation(event.id);
      const held = source !== undefined && isMade(source) ? occupiedBy(source) : { occupied: 0 };
      if (held.pageClass !== undefined) bytes[held.pageClass].removed += held.occupied;
    }
    const kind = ended(event);
    if (kind === undefined || !('id' in event)) continue;
    if (made.delete(event.id)) transient += 1;
    else endedIds.set(event.id, { kind, seq: event.seq });
  }
  const alive = [...made.values()].map((event) => item(kindOf(event), event.id, event.seq, event));
  const gone = [...endedIds].map(([id, { kind, seq }]) => {
    const source = creation(id);
    return item(kind, id, seq, source !== undefined && isMade(source) ? source : undefined);
  });
  return {
    from,
    to,
    allocated: alive.filter((entry) => entry.kind !== 'mapping'),
    freed: gone.filter((entry) => entry.kind !== 'mapping'),
    mapped: alive.filter((entry) => entry.kind === 'mapping'),
    unmapped: gone.filter((entry) => entry.kind === 'mapping'),
    transient,
    bytes,
    events: end - start,
    calls,
  };
}
