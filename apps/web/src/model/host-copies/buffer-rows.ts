import { ACL_HOST_REG, aclrtHostRegisterType, flagNames, type HostBuffer, type HostState, kernelAtMost } from '@pagelens/core';

/** How the device sees a buffer's addresses (HM-6). */
export type VaRelation =
  /** Registered and mapped: the device pointer equals the host pointer. */
  | 'same'
  /** Registered and mapped at another device address (the default). */
  | 'differs'
  /** Registered without ACL_HOST_REG_MAPPED: pinned, but no device pointer. */
  | 'unmapped'
  /** Not registered. */
  | 'none';

/** What a person sees as the buffer's memory: registration with PINNED turns pageable memory pinned (HM-5). */
export type BufferMemory = 'pageable' | 'pinned' | 'pinned-by-registration';

export interface RegistrationView {
  readonly fn: string;
  readonly device: number;
  /** Raw flag word as the call took it. */
  readonly flags: number;
  /** The flag word as C identifiers (aclrtHostRegister takes an aclrtHostRegisterType, V2 the ACL_HOST_REG bits). */
  readonly flagNames: readonly string[];
  readonly pinned: boolean;
  readonly mapped: boolean;
  /** Device address of the buffer's first byte; 0 when not mapped. */
  readonly devPtr: number;
}

export interface BufferRow {
  readonly id: number;
  readonly pid: number;
  readonly fn: string;
  readonly addr: number;
  /** Bytes requested. */
  readonly size: number;
  readonly memory: BufferMemory;
  readonly vaFlag: boolean;
  readonly registration?: RegistrationView;
  readonly va: VaRelation;
  /** HM-6 says the device VA equals the host VA exactly for mapped aclrtMallocHostWithCfg VA_FLAG = 1 memory. */
  readonly expectSameVa: boolean;
  /** False when the reported relation contradicts HM-6 (possible only with observed data). */
  readonly agreesWithHm6: boolean;
  readonly createdSeq: number;
}

export interface ProcessBuffers {
  readonly pid: number;
  readonly name: string;
  readonly rows: readonly BufferRow[];
  readonly pageableBytes: number;
  readonly pinnedBytes: number;
  readonly registered: number;
}

/** The registration flag word as names, read with the enum the registering call takes. */
export function registrationFlagNames(fn: string, flags: number): string[] {
  if (fn === 'aclrtHostRegister') {
    const name = aclrtHostRegisterType.nameOf(flags);
    return [name ?? `0x${flags.toString(16)}`];
  }
  return flagNames(ACL_HOST_REG, flags);
}

export function vaRelation(buffer: HostBuffer): VaRelation {
  const r = buffer.registration;
  if (r === undefined) return 'none';
  if (!r.mapped) return 'unmapped';
  return r.devPtr === buffer.addr ? 'same' : 'differs';
}

/** HM-6: same VA only for mapped memory from aclrtMallocHostWithCfg with VA_FLAG = 1. */
export function expectSameVa(buffer: HostBuffer): boolean {
  return buffer.registration?.mapped === true && buffer.fn === 'aclrtMallocHostWithCfg' && buffer.vaFlag;
}

export function bufferMemory(buffer: HostBuffer): BufferMemory {
  if (buffer.memory === 'pinned') return 'pinned';
  return buffer.registration?.pinned === true ? 'pinned-by-registration' : 'pageable';
}

export function bufferRow(buffer: HostBuffer): BufferRow {
  const va = vaRelation(buffer);
  const expected = expectSameVa(buffer);
  const r = buffer.registration;
  const registration: RegistrationView | undefined =
    r === undefined
      ? undefined
      : {
          fn: r.fn,
          device: r.device,
          flags: r.flags,
          flagNames: registrationFlagNames(r.fn, r.flags),
          pinned: r.pinned,
          mapped: r.mapped,
          devPtr: r.devPtr,
        };
  const agrees = va === 'same' ? expected : va === 'differs' ? !expected : true;
  return {
    id: buffer.id,
    pid: buffer.pid,
    fn: buffer.fn,
    addr: buffer.addr,
    size: buffer.size,
    memory: bufferMemory(buffer),
    vaFlag: buffer.vaFlag,
    ...(registration === undefined ? {} : { registration }),
    va,
    expectSameVa: expected,
    agreesWithHm6: agrees,
    createdSeq: buffer.createdSeq,
  };
}

/** Live host buffers grouped by process (pid order), each group in address order. */
export function processBuffers(state: HostState): ProcessBuffers[] {
  const byPid = new Map<number, BufferRow[]>();
  for (const buffer of state.hostBuffers.values()) {
    const list = byPid.get(buffer.pid);
    const row = bufferRow(buffer);
    if (list === undefined) byPid.set(buffer.pid, [row]);
    else list.push(row);
  }
  return [...byPid.entries()]
    .sort(([a], [b]) => a - b)
    .map(([pid, rows]) => {
      rows.sort((a, b) => a.addr - b.addr);
      let pageableBytes = 0;
      let pinnedBytes = 0;
      let registered = 0;
      for (const row of rows) {
        if (row.memory === 'pageable') pageableBytes += row.size;
        else pinnedBytes += row.size;
        if (row.registration !== undefined) registered += 1;
      }
      return { pid, name: state.processes.get(pid)?.name ?? '', rows, pageableBytes, pinnedBytes, registered };
    });
}

/** HM-5: registering malloc memory fails on host kernels 5.10 and older. */
export function kernelRefusesMallocRegister(kernelVersion: string): boolean {
  return kernelAtMost(kernelVersion, 5, 10);
}

/** The live host buffer of `pid` that holds `addr` (a copy's source or destination), if any. */
export function bufferAt(state: HostState, pid: number, addr: number): HostBuffer | undefined {
  for (const buffer of state.hostBuffers.values()) {
    if (buffer.pid === pid && addr >= buffer.addr && addr < buffer.addr + Math.max(buffer.size, 1)) return buffer;
  }
  return undefined;
}
