import type { HostState } from '@pagelens/core';

/**
 * Objects a run can leave behind on the host: device allocations, physical handles, reservations,
 * mappings, host buffers and streams. (Physical memory is counted through its handle.)
 */
export function liveObjectCount(state: HostState): number {
  return (
    state.allocations.size +
    state.handles.size +
    state.reservations.size +
    state.mappings.size +
    state.hostBuffers.size +
    state.streams.size
  );
}

/** What a pointer or handle variable refers to on the host, as the selection names it. */
export interface HeldObject {
  readonly kind: 'allocation' | 'host' | 'reservation' | 'handle' | 'stream';
  readonly id: number;
}

/**
 * The live object whose address or handle value a variable shows (`0x100000000000`,
 * `0x550000000100 …`), searched in every process: a device allocation, a host buffer, a
 * reservation, a physical handle or a stream, in that order. Undefined for NULL or anything else.
 */
export function objectAtValue(state: HostState, value: string): HeldObject | undefined {
  const match = /^0x([0-9a-f]+)\b/i.exec(value.trim());
  if (match?.[1] === undefined) return undefined;
  const at = Number.parseInt(match[1], 16);
  if (at === 0 || !Number.isSafeInteger(at)) return undefined;
  for (const process of state.processes.values()) {
    const found: [HeldObject['kind'], number | undefined][] = [
      ['allocation', process.allocByAddr.get(at)],
      ['host', process.hostByAddr.get(at)],
      ['reservation', process.reservationByAddr.get(at)],
      ['handle', process.handleByValue.get(at)],
      ['stream', process.streamByHandle.get(at)],
    ];
    for (const [kind, id] of found) if (id !== undefined) return { kind, id };
  }
  return undefined;
}
