import type { DeviceProfile } from '../profiles/profile.ts';
import type { PoolSampleEvent } from './events.ts';
import { claimFrames, claimPages, FrameKind } from './frames.ts';
import {
  type AclContext,
  type AclEvent,
  type CopyRecord,
  createHostState,
  createProcessState,
  type DeviceAllocation,
  type HostBuffer,
  type HostState,
  type IpcImport,
  type IpcKey,
  type Mapping,
  type PhysicalHandle,
  type PhysicalMemory,
  type Reservation,
  type Share,
  type Stream,
} from './state.ts';

/**
 * The state at one `seq`, as plain JSON, for a client that joins late (the wire `snapshot`) and
 * for time-travel checkpoints. Physical frames are not stored: they follow from the placement
 * runs of the live allocations and physical memory, and decoding claims them again.
 */
export interface Snapshot {
  readonly seq: number;
  readonly time: number;
  readonly devices: readonly SnapshotDevice[];
  readonly processes: readonly SnapshotProcess[];
  readonly allocations: readonly DeviceAllocation[];
  readonly physical: readonly PhysicalMemory[];
  readonly handles: readonly PhysicalHandle[];
  readonly reservations: readonly Reservation[];
  readonly mappings: readonly Mapping[];
  readonly hostBuffers: readonly HostBuffer[];
  readonly streams: readonly Stream[];
  readonly contexts: readonly AclContext[];
  readonly aclEvents: readonly AclEvent[];
  readonly shares: readonly Share[];
  readonly ipcKeys: readonly IpcKey[];
  readonly ipcImports: readonly IpcImport[];
  readonly copies: readonly CopyRecord[];
}

export interface SnapshotDevice {
  readonly profile: DeviceProfile;
  readonly peers: readonly number[];
  readonly lastSample?: PoolSampleEvent;
}

export interface SnapshotProcess {
  readonly pid: number;
  readonly name: string;
  readonly initialized: boolean;
  readonly finalized: boolean;
  readonly currentDevice: number;
  readonly currentContext: number;
  readonly deviceRefs: readonly (readonly [number, number])[];
}

const values = <T>(map: Map<number, T>): T[] => [...map.values()];

export function encodeSnapshot(state: HostState): Snapshot {
  return {
    seq: state.seq,
    time: state.time,
    devices: state.devices.map((device) => ({
      profile: device.profile,
      peers: [...device.peers].sort((a, b) => a - b),
      ...(device.lastSample === undefined ? {} : { lastSample: device.lastSample }),
    })),
    processes: values(state.processes).map((p) => ({
      pid: p.pid,
      name: p.name,
      initialized: p.initialized,
      finalized: p.finalized,
      currentDevice: p.currentDevice,
      currentContext: p.currentContext,
      deviceRefs: [...p.deviceRefs].sort((a, b) => a[0] - b[0]),
    })),
    allocations: values(state.allocations),
    physical: values(state.physical),
    handles: values(state.handles),
    reservations: values(state.reservations),
    mappings: values(state.mappings),
    hostBuffers: values(state.hostBuffers),
    streams: values(state.streams),
    contexts: values(state.contexts),
    aclEvents: values(state.aclEvents),
    shares: [...state.shares.values()],
    ipcKeys: [...state.ipcKeys.values()],
    ipcImports: values(state.ipcImports),
    copies: state.copies,
  };
}

/** Rebuilds a full HostState, including frames and the per-process address maps. */
export function decodeSnapshot(snapshot: Snapshot): HostState {
  const state = createHostState(snapshot.devices.map((device) => device.profile));
  state.seq = snapshot.seq;
  state.time = snapshot.time;
  snapshot.devices.forEach((device, id) => {
    const target = state.devices[id];
    if (target === undefined) return;
    for (const peer of device.peers) target.peers.add(peer);
    if (device.lastSample !== undefined) target.lastSample = device.lastSample;
  });
  for (const p of snapshot.processes) {
    const process = createProcessState(p.pid, p.name);
    process.initialized = p.initialized;
    process.finalized = p.finalized;
    process.currentDevice = p.currentDevice;
    process.currentContext = p.currentContext;
    for (const [device, refs] of p.deviceRefs) process.deviceRefs.set(device, refs);
    state.processes.set(p.pid, process);
  }
  const processOf = (pid: number) => {
    const process = state.processes.get(pid);
    if (process === undefined) throw new Error(`snapshot refers to unknown process ${pid}`);
    return process;
  };
  const claim = (device: number, placement: { pageClass: string; runs: readonly number[] }, owner: number): void => {
    const frames = state.devices[device]?.frames;
    if (frames === undefined) throw new Error(`snapshot refers to unknown device ${device}`);
    if (placement.pageClass === 'normal') claimPages(frames, placement.runs, owner);
    else claimFrames(frames, placement.runs, placement.pageClass === 'huge' ? FrameKind.huge : FrameKind.giant, owner);
  };
  for (const a of snapshot.allocations) {
    state.allocations.set(a.id, { ...a });
    processOf(a.pid).allocByAddr.set(a.addr, a.id);
    claim(a.device, a, a.id);
  }
  for (const m of snapshot.physical) {
    state.physical.set(m.id, { ...m });
    claim(m.device, m, m.id);
  }
  for (const h of snapshot.handles) {
    state.handles.set(h.id, { ...h });
    if (!h.freed) processOf(h.pid).handleByValue.set(h.handle, h.id);
  }
  for (const r of snapshot.reservations) {
    state.reservations.set(r.id, { ...r });
    processOf(r.pid).reservationByAddr.set(r.addr, r.id);
  }
  for (const m of snapshot.mappings) {
    state.mappings.set(m.id, { ...m });
    processOf(m.pid).mappingByAddr.set(m.addr, m.id);
  }
  for (const b of snapshot.hostBuffers) {
    state.hostBuffers.set(b.id, { ...b });
    processOf(b.pid).hostByAddr.set(b.addr, b.id);
  }
  for (const c of snapshot.contexts) {
    state.contexts.set(c.id, { ...c });
    processOf(c.pid).contextByHandle.set(c.handle, c.id);
    if (c.isDefault) processOf(c.pid).primaryContexts.set(c.device, c.id);
  }
  for (const s of snapshot.streams) {
    state.streams.set(s.id, { ...s });
    // As reduce files it: the NULL stream of a device, or by handle (a created context's default stream too).
    const owner = s.context === undefined ? undefined : state.contexts.get(s.context);
    if (s.isDefault && owner?.isDefault !== false) processOf(s.pid).defaultStreams.set(s.device, s.id);
    else processOf(s.pid).streamByHandle.set(s.handle, s.id);
  }
  for (const e of snapshot.aclEvents) {
    state.aclEvents.set(e.id, { ...e });
    processOf(e.pid).eventByHandle.set(e.handle, e.id);
  }
  for (const share of snapshot.shares) state.shares.set(share.shareable, { ...share });
  for (const key of snapshot.ipcKeys) state.ipcKeys.set(key.key, { ...key });
  for (const item of snapshot.ipcImports) {
    state.ipcImports.set(item.id, { ...item });
    processOf(item.pid).importByAddr.set(item.addr, item.id);
  }
  // A loop, not push(...copies): a long session holds more copy records than a call may take arguments.
  for (const copy of snapshot.copies) state.copies.push(copy);
  return state;
}

/** A canonical text of the whole state, frames included, for "is this the same state?" checks. */
export function fingerprint(state: HostState): string {
  const sorted = <T extends { id: number }>(items: readonly T[]): T[] => [...items].sort((a, b) => a.id - b.id);
  const snapshot = encodeSnapshot(state);
  const frames = state.devices.map((device) => ({
    kind: Array.from(device.frames.kind),
    owner: Array.from(device.frames.owner),
    used: Array.from(device.frames.used),
    pages: [...device.frames.pages].sort((a, b) => a[0] - b[0]).map(([frame, owners]) => [frame, Array.from(owners)]),
    free: device.frames.free.count,
    partial: device.frames.partial.count,
    counts: [device.frames.hugeFrames, device.frames.giantFrames, device.frames.splitFrames, device.frames.normalPagesUsed],
    freeInBlock: Array.from(device.frames.freeInBlock),
  }));
  const processes = [...state.processes.values()]
    .sort((a, b) => a.pid - b.pid)
    .map((p) => ({
      ...p,
      deviceRefs: [...p.deviceRefs].sort(),
      allocByAddr: [...p.allocByAddr].sort(),
      reservationByAddr: [...p.reservationByAddr].sort(),
      mappingByAddr: [...p.mappingByAddr].sort(),
      hostByAddr: [...p.hostByAddr].sort(),
      handleByValue: [...p.handleByValue].sort(),
      streamByHandle: [...p.streamByHandle].sort(),
      defaultStreams: [...p.defaultStreams].sort(),
      contextByHandle: [...p.contextByHandle].sort(),
      primaryContexts: [...p.primaryContexts].sort(),
      eventByHandle: [...p.eventByHandle].sort(),
      importByAddr: [...p.importByAddr].sort(),
    }));
  return canonicalJson({
    ...snapshot,
    processes,
    allocations: sorted(snapshot.allocations),
    physical: sorted(snapshot.physical),
    handles: sorted(snapshot.handles),
    reservations: sorted(snapshot.reservations),
    mappings: sorted(snapshot.mappings),
    hostBuffers: sorted(snapshot.hostBuffers),
    streams: sorted(snapshot.streams),
    contexts: sorted(snapshot.contexts),
    aclEvents: sorted(snapshot.aclEvents),
    shares: [...snapshot.shares].sort((a, b) => a.shareable - b.shareable),
    ipcKeys: [...snapshot.ipcKeys].sort((a, b) => (a.key < b.key ? -1 : 1)),
    ipcImports: sorted(snapshot.ipcImports),
    frames,
  });
}

/** JSON with object keys in sorted order, so equal values always print the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) sorted[key] = Reflect.get(item, key);
    return sorted;
  });
}
