import type { BufferSegment, HostState, Mapping } from '@pagelens/core';

/** Something the TLB simulator can run over: an allocation, or one contiguous mapped run of a VMM reservation. */
export interface BufferChoice {
  /** Stable across renders: "allocation:12", "reservation:30:0". */
  readonly key: string;
  readonly kind: 'allocation' | 'reservation';
  /** Id of the allocation or reservation. */
  readonly id: number;
  /** Ids of the mappings that make up a reservation run (empty for an allocation). */
  readonly mappings: readonly number[];
  /** For a reservation: which contiguous mapped run (0, 1, …) and how many it has. */
  readonly run: number;
  readonly runs: number;
  readonly va: number;
  readonly bytes: number;
  readonly segments: readonly BufferSegment[];
  readonly fn: string;
}

/**
 * A reservation's mappings as buffer segments, each with the page size of its handle's physical
 * memory (VM-6), in address order, split where an unmapped hole interrupts them: the simulator
 * needs contiguous segments, and a hole has no translation to simulate.
 */
export function segmentsFromMappings(state: HostState, mappings: readonly Mapping[]): { segments: BufferSegment[]; mappings: number[] }[] {
  const sorted = [...mappings].sort((a, b) => a.addr - b.addr);
  const runs: { segments: BufferSegment[]; mappings: number[] }[] = [];
  let current: { segments: BufferSegment[]; mappings: number[] } | undefined;
  let end = -1;
  for (const mapping of sorted) {
    const handle = state.handles.get(mapping.handle);
    const memory = handle === undefined ? undefined : state.physical.get(handle.memory);
    if (memory === undefined) continue;
    if (current === undefined || mapping.addr !== end) {
      current = { segments: [], mappings: [] };
      runs.push(current);
    }
    current.segments.push({ va: mapping.addr, bytes: mapping.size, pageSize: memory.pageSize });
    current.mappings.push(mapping.id);
    end = mapping.addr + mapping.size;
  }
  return runs;
}

/** Every buffer of `device` at this state: allocations in creation order, then reservation runs. */
export function bufferChoices(state: HostState, device: number): BufferChoice[] {
  const choices: BufferChoice[] = [];
  for (const a of state.allocations.values()) {
    if (a.device !== device) continue;
    choices.push({
      key: `allocation:${a.id}`,
      kind: 'allocation',
      id: a.id,
      mappings: [],
      run: 0,
      runs: 1,
      va: a.addr,
      bytes: a.size,
      segments: [{ va: a.addr, bytes: a.size, pageSize: a.pageSize }],
      fn: a.fn,
    });
  }
  const byReservation = new Map<number, Mapping[]>();
  for (const mapping of state.mappings.values()) {
    if (mapping.device !== device) continue;
    const list = byReservation.get(mapping.reservation);
    if (list === undefined) byReservation.set(mapping.reservation, [mapping]);
    else list.push(mapping);
  }
  for (const [id, mappings] of byReservation) {
    const runs = segmentsFromMappings(state, mappings);
    runs.forEach((run, index) => {
      const first = run.segments[0];
      const last = run.segments[run.segments.length - 1];
      if (first === undefined || last === undefined) return;
      choices.push({
        key: `reservation:${id}:${index}`,
        kind: 'reservation',
        id,
        mappings: run.mappings,
        run: index,
        runs: runs.length,
        va: first.va,
        bytes: last.va + last.bytes - first.va,
        segments: run.segments,
        fn: 'aclrtMapMem',
      });
    });
  }
  return choices;
}

/** The buffer a selection points at: the allocation, or the reservation run holding a mapping. */
export function choiceForSelection(
  choices: readonly BufferChoice[],
  selection: { readonly kind: string; readonly id: number } | undefined,
): BufferChoice | undefined {
  if (selection === undefined) return undefined;
  switch (selection.kind) {
    case 'allocation':
      return choices.find((c) => c.kind === 'allocation' && c.id === selection.id);
    case 'reservation':
      return choices.find((c) => c.kind === 'reservation' && c.id === selection.id);
    case 'mapping':
      return choices.find((c) => c.mappings.includes(selection.id));
    default:
      return undefined;
  }
}

/** Options a buffer list shows at most: a <select> of 100,000 options would stall every render. */
export const MAX_BUFFER_OPTIONS = 300;

/**
 * The buffers to list: all of them when there are few; otherwise the chosen one and the largest
 * others (a TLB is stressed by big buffers), in their usual order. Any other buffer is reached by
 * selecting it in another view. `hidden` says how many were left out.
 */
export function bufferOptions(
  choices: readonly BufferChoice[],
  chosenKey: string | undefined,
  limit = MAX_BUFFER_OPTIONS,
): { readonly options: readonly BufferChoice[]; readonly hidden: number } {
  if (choices.length <= limit) return { options: choices, hidden: 0 };
  // The limit-th largest size, from a typed-array sort (fast for 100,000 numbers).
  const sizes = Float64Array.from(choices, (choice) => choice.bytes).sort();
  const threshold = sizes[sizes.length - limit] ?? 0;
  const kept = new Set<BufferChoice>();
  const chosen = choices.find((choice) => choice.key === chosenKey);
  if (chosen !== undefined) kept.add(chosen);
  const fill = (wanted: (choice: BufferChoice) => boolean): void => {
    for (const choice of choices) {
      if (kept.size >= limit) return;
      if (wanted(choice)) kept.add(choice);
    }
  };
  // Everything larger than the threshold fits; ties with it fill what room is left, in order.
  fill((choice) => choice.bytes > threshold);
  fill((choice) => choice.bytes === threshold);
  const options = choices.filter((choice) => kept.has(choice));
  return { options, hidden: choices.length - options.length };
}
