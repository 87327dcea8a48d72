import { ACL_HOST_REG, aclrtHostRegisterType } from '../acl/enums.ts';
import {
  ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
  ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_MEMORY_ALLOCATION,
  ACL_SUCCESS,
} from '../acl/errors.ts';
import type { HostBuffer } from '../model/state.ts';
import { kernelAtMost } from '../profiles/profile.ts';
import { type Text, text, withText } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import {
  address,
  currentDevice,
  done,
  fail,
  invalid,
  isResult,
  type Op,
  type OpResult,
  ok,
  passFailure,
  type SimContext,
} from './context.ts';
import { readMallocConfig } from './ops-malloc.ts';

const REG = ACL_HOST_REG.byName;
/** HM-2: pinned memory starts 64-byte aligned; malloc gives 16-byte alignment below a page. */
const PINNED_ALIGN = 64;
const MALLOC_ALIGN = 16;

/** The live host buffer of this process that holds [at, at + size), if any. */
export function hostBufferAt(context: SimContext, at: number, size = 1): HostBuffer | undefined {
  const direct = context.process.hostByAddr.get(at);
  if (direct !== undefined) {
    const buffer = context.state.hostBuffers.get(direct);
    if (buffer !== undefined && at + size <= buffer.addr + buffer.size) return buffer;
  }
  for (const id of context.process.hostByAddr.values()) {
    const buffer = context.state.hostBuffers.get(id);
    if (buffer !== undefined && buffer.addr <= at && at + size <= buffer.addr + buffer.size) return buffer;
  }
  return undefined;
}

function hostPageSize(context: SimContext): number {
  return context.state.devices[0]?.profile.host.pageSize ?? 4096;
}

/** C malloc: pageable memory the OS may swap (HM-1). Page-aligned from one page up (modeled). */
export const malloc: Op<'malloc'> = (context, { size }) => {
  const page = hostPageSize(context);
  const length = Math.max(size, MALLOC_ALIGN);
  const addr = context.space.pageable.take(length, size >= page ? page : MALLOC_ALIGN);
  if (addr === undefined) return ok({ ptr: toHex(0) });
  context.emit({
    kind: 'hostAlloc',
    pid: context.pid,
    id: context.host.newId(),
    fn: 'malloc',
    addr,
    size,
    memory: 'pageable',
    vaFlag: false,
  });
  return ok({ ptr: toHex(addr) });
};

/** Drops a buffer's registration and gives back the device addresses it took (HM-5). */
export function unregister(context: SimContext, buffer: HostBuffer): void {
  const { registration } = buffer;
  if (registration?.mapped === true && !registration.vaConsistent) context.space.registered.release(registration.devPtr, buffer.size);
  context.emit({ kind: 'hostUnregister', id: buffer.id });
}

function unregisterFirst(context: SimContext, buffer: HostBuffer): Text | undefined {
  if (buffer.registration === undefined) return undefined;
  unregister(context, buffer);
  return text('host-unregistered-first', { ptr: toHex(buffer.addr) });
}

export const free: Op<'free'> = (context, { ptr }) => {
  const at = address(ptr);
  if (at === 0) return done();
  const id = context.process.hostByAddr.get(at);
  const buffer = id === undefined ? undefined : context.state.hostBuffers.get(id);
  if (buffer === undefined || buffer.memory !== 'pageable') {
    return invalid(text(buffer === undefined ? 'host-free-unknown' : 'host-free-pinned', { ptr }));
  }
  const note = unregisterFirst(context, buffer);
  context.space.pageable.release(buffer.addr, Math.max(buffer.size, MALLOC_ALIGN));
  context.emit({ kind: 'hostFree', id: buffer.id });
  return note === undefined ? done() : { ret: ACL_SUCCESS, ...withText(note) };
};

function mallocHost(context: SimContext, fn: string, size: number, vaFlag: boolean): OpResult<{ addr: number }> {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (size === 0) return invalid(text('size-zero-arg'));
  if (vaFlag && !device.profile.features.vaFlag)
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('host-no-va-flag', { profile: device.profile.name }));
  const addr = context.space.pinned.take(size, Math.max(PINNED_ALIGN, hostPageSize(context)));
  if (addr === undefined) return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text('host-pinned-full'));
  context.emit({ kind: 'hostAlloc', pid: context.pid, id: context.host.newId(), fn, addr, size, memory: 'pinned', vaFlag });
  return ok({ addr });
}

/** HM-2: page-locked host memory. */
export const aclrtMallocHost: Op<'aclrtMallocHost'> = (context, { size }) => {
  const result = mallocHost(context, 'aclrtMallocHost', size, false);
  return result.out === undefined ? passFailure(result) : ok({ hostPtr: toHex(result.out.addr) });
};

/** HM-4, HM-6: pinned memory with attributes; VA_FLAG = 1 makes the device see it at the host address. */
export const aclrtMallocHostWithCfg: Op<'aclrtMallocHostWithCfg'> = (context, { size, cfg }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const config = readMallocConfig(cfg, device.id);
  if ('ret' in config) return config;
  const result = mallocHost(context, 'aclrtMallocHostWithCfg', size, config.vaFlag);
  return result.out === undefined ? passFailure(result) : ok({ ptr: toHex(result.out.addr) });
};

export const aclrtFreeHost: Op<'aclrtFreeHost'> = (context, { hostPtr }) => {
  const at = address(hostPtr);
  if (at === 0) return invalid(text('null-arg', { name: 'hostPtr' }));
  const id = context.process.hostByAddr.get(at);
  const buffer = id === undefined ? undefined : context.state.hostBuffers.get(id);
  if (buffer === undefined || buffer.memory !== 'pinned') {
    return invalid(text(buffer === undefined ? 'host-free-host-unknown' : 'host-free-host-malloc', { hostPtr }));
  }
  const note = unregisterFirst(context, buffer);
  context.space.pinned.release(buffer.addr, buffer.size);
  context.emit({ kind: 'hostFree', id: buffer.id });
  return note === undefined ? done() : { ret: ACL_SUCCESS, ...withText(note) };
};

interface Registration {
  readonly pinned: boolean;
  readonly mapped: boolean;
}

/** HM-5, HM-6: registers [ptr, ptr + size) with the current device. */
function register(
  context: SimContext,
  fn: string,
  ptr: string,
  size: number,
  flags: number,
  wanted: Registration,
): OpResult<{ devPtr: number }> {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const at = address(ptr);
  const page = hostPageSize(context);
  if (at === 0) return invalid(text('null-arg', { name: 'ptr' }));
  if (size === 0) return invalid(text('size-zero-arg'));
  if (at % page !== 0) return invalid(text('host-register-align', { ptr, page }));
  const buffer = hostBufferAt(context, at, size);
  if (buffer === undefined) return invalid(text('host-register-outside', { ptr, size }));
  if (buffer.registration !== undefined) return fail(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, text('host-already-registered', { ptr }));
  if (buffer.memory === 'pageable' && kernelAtMost(device.profile.host.kernelVersion, 5, 10)) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('host-register-old-kernel', { kernel: device.profile.host.kernelVersion }));
  }
  // HM-6: memory from aclrtMallocHostWithCfg with VA_FLAG = 1 is seen by the device at the host address.
  const vaConsistent = wanted.mapped && buffer.vaFlag;
  // `devPtr` is the device address of the buffer's first byte: the model maps the whole buffer, so a
  // 4 KiB-aligned sub-range registered at `at` is seen at devPtr + (at − buffer.addr).
  let devPtr = 0;
  if (wanted.mapped) {
    const taken = vaConsistent ? buffer.addr : context.space.registered.take(buffer.size, page);
    if (taken === undefined) return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text('host-register-va-full'));
    devPtr = taken;
  }
  context.emit({
    kind: 'hostRegister',
    id: buffer.id,
    fn,
    device: device.id,
    flags,
    pinned: wanted.pinned || buffer.memory === 'pinned',
    mapped: wanted.mapped,
    devPtr,
    vaConsistent,
  });
  return ok({ devPtr: wanted.mapped ? devPtr + (at - buffer.addr) : 0 });
}

export const aclrtHostRegister: Op<'aclrtHostRegister'> = (context, { ptr, size, type }) => {
  const T = aclrtHostRegisterType.byName;
  if (type === T.ACL_HOST_REGISTER_IOMEMORY || type === T.ACL_HOST_REGISTER_READONLY) {
    return fail(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      text('host-register-type-reserved', { type: aclrtHostRegisterType.nameOf(type) ?? type }),
    );
  }
  if (type !== T.ACL_HOST_REGISTER_MAPPED) return invalid(text('host-register-type-unknown', { type }));
  const result = register(context, 'aclrtHostRegister', ptr, size, type, { pinned: true, mapped: true });
  return result.out === undefined ? passFailure(result) : ok({ devPtr: toHex(result.out.devPtr) });
};

/** HM-5: PINNED turns pageable memory into pinned memory; MAPPED maps it to the device. */
export const aclrtHostRegisterV2: Op<'aclrtHostRegisterV2'> = (context, { ptr, size, flag }) => {
  if ((flag & (REG.ACL_HOST_REG_IOMEMORY | REG.ACL_HOST_REG_READONLY)) !== 0) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('host-register-flags-reserved'));
  }
  const known = REG.ACL_HOST_REG_PINNED | REG.ACL_HOST_REG_MAPPED;
  if (flag === 0 || (flag & ~known) !== 0) return invalid(text('host-register-flag-bits', { flag: `0x${flag.toString(16)}` }));
  const pinned = (flag & REG.ACL_HOST_REG_PINNED) !== 0;
  if (pinned) {
    const buffer = hostBufferAt(context, address(ptr), Math.max(size, 1));
    if (buffer?.memory === 'pinned') return invalid(text('host-register-pinned', { ptr }));
  }
  const result = register(context, 'aclrtHostRegisterV2', ptr, size, flag, { pinned, mapped: (flag & REG.ACL_HOST_REG_MAPPED) !== 0 });
  return result.out === undefined ? passFailure(result) : done();
};

export const aclrtHostUnregister: Op<'aclrtHostUnregister'> = (context, { ptr }) => {
  // The pointer given to the register call, which may lie inside its buffer (a 4 KiB-aligned sub-range).
  const buffer = hostBufferAt(context, address(ptr));
  if (buffer?.registration === undefined) return fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, text('host-not-registered', { ptr }));
  unregister(context, buffer);
  return done();
};

/** HM-5, HM-7: the device address of registered, mapped host memory (for kernels only). */
export const aclrtHostGetDevicePointer: Op<'aclrtHostGetDevicePointer'> = (context, { pHost, flag }) => {
  if (flag !== 0) return invalid(text('must-be-zero', { name: 'flag', value: flag }));
  const at = address(pHost);
  const buffer = hostBufferAt(context, at);
  if (buffer?.registration === undefined || !buffer.registration.mapped) {
    return fail(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, text('host-not-mapped', { ptr: pHost }));
  }
  return ok({ pDevice: toHex(buffer.registration.devPtr + (at - buffer.addr)) });
};
