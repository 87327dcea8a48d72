import { ACL_FAILURE_MODE, aclrtRunMode, aclrtStreamStatus } from '../acl/enums.ts';
import {
  ACL_ERROR_REPEAT_FINALIZE,
  ACL_ERROR_REPEAT_INITIALIZE,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_PARAM_INVALID,
  ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
} from '../acl/errors.ts';
import type { Stream } from '../model/state.ts';
import { type Text, text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, type OpResult, ok, type SimContext } from './context.ts';
import { createContext, foreignStream } from './ops-context.ts';
import { releaseDeviceResources } from './teardown-device.ts';
import { badTimeout, type Wait, waitUntil } from './wait.ts';

/** LT-1: aclInit once per process; a repeat answers 100002, which is harmless. */
export const aclInit: Op<'aclInit'> = (context) => {
  if (context.process.initialized) return fail(ACL_ERROR_REPEAT_INITIALIZE, text('init-repeated'));
  context.emit({ kind: 'init', pid: context.pid });
  return done();
};

/**
 * LT-5: one aclFinalize ends the process's ACL session, however many aclInit came before; a second
 * answers 100037. Devices stay set: the open runtime's aclFinalize resets none (runtime-api.md §2).
 */
export const aclFinalize: Op<'aclFinalize'> = (context) => {
  if (context.process.finalized) return fail(ACL_ERROR_REPEAT_FINALIZE, text('finalize-repeated'));
  context.emit({ kind: 'finalize', pid: context.pid });
  return done();
};

function checkDevice(context: SimContext, deviceId: number): Text | undefined {
  if (deviceId < 0 || deviceId >= context.state.devices.length) {
    return text('device-missing', { device: deviceId, last: context.state.devices.length - 1 });
  }
  return undefined;
}

/** LT-2: reference-counted; the first set creates the device's default context and stream. */
export const aclrtSetDevice: Op<'aclrtSetDevice'> = (context, { deviceId }) => {
  const problem = checkDevice(context, deviceId);
  if (problem !== undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, problem);
  const refs = (context.process.deviceRefs.get(deviceId) ?? 0) + 1;
  // The first set creates the device's default context with its default (NULL) stream (CX-1).
  if (refs === 1) createContext(context, deviceId, true);
  context.emit({ kind: 'deviceSet', pid: context.pid, device: deviceId, refs });
  return done();
};

function resetDevice(context: SimContext, deviceId: number, force: boolean) {
  const problem = checkDevice(context, deviceId);
  if (problem !== undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, problem);
  const before = context.process.deviceRefs.get(deviceId) ?? 0;
  if (before === 0) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('device-not-set', { device: deviceId }));
  const refs = force ? 0 : before - 1;
  // The last reference releases the device's context and, with it, everything the process has there (LT-2, LT-3).
  if (refs === 0) releaseDeviceResources(context, deviceId);
  context.emit({ kind: 'deviceReset', pid: context.pid, device: deviceId, refs });
  return done();
}

export const aclrtResetDevice: Op<'aclrtResetDevice'> = (context, { deviceId }) => resetDevice(context, deviceId, false);
export const aclrtResetDeviceForce: Op<'aclrtResetDeviceForce'> = (context, { deviceId }) => resetDevice(context, deviceId, true);

export const aclrtGetDevice: Op<'aclrtGetDevice'> = (context) => {
  const device = currentDevice(context);
  return isResult(device) ? device : ok({ deviceId: device.id });
};

export const aclrtGetDeviceCount: Op<'aclrtGetDeviceCount'> = (context) => ok({ count: context.state.devices.length });

/** A simulated program runs on the host with its devices attached (ACL_HOST); device-side (ACL_DEVICE) programs are not modeled. */
export const aclrtGetRunMode: Op<'aclrtGetRunMode'> = () => ok({ runMode: aclrtRunMode.byName.ACL_HOST });

/** With several devices it always reports device 0 (acl-api.md §5). */
export const aclrtGetSocName: Op<'aclrtGetSocName'> = (context) => ok({ socName: context.state.devices[0]?.profile.name ?? null });

function createStream(context: SimContext) {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const handle = context.host.newOpaque();
  const id = context.host.newId();
  const owner = context.process.currentContext;
  // CX-3: the stream belongs to the current context.
  if (owner === -1) context.emit({ kind: 'streamCreate', pid: context.pid, device: device.id, id, handle, isDefault: false });
  else context.emit({ kind: 'streamCreate', pid: context.pid, device: device.id, id, handle, isDefault: false, context: owner });
  return ok({ stream: toHex(handle) });
}

export const aclrtCreateStream: Op<'aclrtCreateStream'> = (context) => createStream(context);

/** Priority is kept by the runtime but documented as having no effect; unknown flag bits are dropped (runtime-api.md §4). */
export const aclrtCreateStreamWithConfig: Op<'aclrtCreateStreamWithConfig'> = (context) => createStream(context);

/** The stream a handle names in this process; NULL is the current context's default stream. */
export function resolveStream(context: SimContext, hex: string): Stream | undefined {
  const handle = address(hex);
  const { process } = context;
  let id: number | undefined;
  if (handle !== 0) id = process.streamByHandle.get(handle);
  else {
    const current = process.currentContext === -1 ? undefined : context.state.contexts.get(process.currentContext);
    id = current !== undefined && !current.isDefault ? current.defaultStream : process.defaultStreams.get(process.currentDevice);
  }
  return id === undefined ? undefined : context.state.streams.get(id);
}

/** The live stream a handle names, or the failure to answer: 107002 for NULL without a device, 107000 for an unknown handle. */
export function liveStream(context: SimContext, hex: string): Stream | OpResult<never> {
  if (address(hex) === 0) {
    const device = currentDevice(context);
    if (isResult(device)) return device;
  }
  return resolveStream(context, hex) ?? fail(ACL_ERROR_RT_PARAM_INVALID, text('stream-not-live', { stream: hex }));
}

function destroyStream(context: SimContext, stream: string, fn: string, wait: boolean) {
  if (address(stream) === 0) return invalid(text('stream-null-destroy'));
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('stream-not-live', { stream }));
  const foreign = foreignStream(context, target, fn);
  if (foreign !== undefined) return foreign;
  // aclrtDestroyStream waits for the stream's work; the Force variant does not (CP-4, runtime-api.md §4).
  if (wait && target.busyUntil > context.state.time)
    context.emit({ kind: 'sync', pid: context.pid, stream: target.id, until: target.busyUntil });
  context.emit({ kind: 'streamDestroy', id: target.id });
  return done();
}

export const aclrtDestroyStream: Op<'aclrtDestroyStream'> = (context, { stream }) =>
  destroyStream(context, stream, 'aclrtDestroyStream', true);
export const aclrtDestroyStreamForce: Op<'aclrtDestroyStreamForce'> = (context, { stream }) =>
  destroyStream(context, stream, 'aclrtDestroyStreamForce', false);

const MODE = ACL_FAILURE_MODE.byName;

/**
 * CP-7: only bit 0 counts. Stop-on-failure applies to every stream of the context, and once set
 * it cannot go back (207000); setting the mode a stream already has changes nothing.
 */
export const aclrtSetStreamFailureMode: Op<'aclrtSetStreamFailureMode'> = (context, { stream, mode }) => {
  const target = liveStream(context, stream);
  if ('ret' in target) return target;
  const foreign = foreignStream(context, target, 'aclrtSetStreamFailureMode');
  if (foreign !== undefined) return foreign;
  const wanted = mode & 1;
  if (wanted === target.failureMode) return done();
  if (wanted === MODE.ACL_CONTINUE_ON_FAILURE) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('stream-stop-sticky'));
  }
  for (const other of context.state.streams.values()) {
    const sameContext = target.context === undefined ? other.id === target.id : other.context === target.context;
    if (sameContext && other.failureMode !== wanted) context.emit({ kind: 'streamMode', id: other.id, mode: wanted });
  }
  return done();
};

const STREAM_STATUS = aclrtStreamStatus.byName;

/** CP-6: COMPLETE when the stream's queued work is done on the virtual clock, NOT_READY before. */
export const aclrtStreamQuery: Op<'aclrtStreamQuery'> = (context, { stream }) => {
  const target = liveStream(context, stream);
  if ('ret' in target) return target;
  const busy = target.busyUntil > context.state.time;
  return ok({ status: busy ? STREAM_STATUS.ACL_STREAM_STATUS_NOT_READY : STREAM_STATUS.ACL_STREAM_STATUS_COMPLETE });
};

/** CP-4: the host waits until the stream's queued work is done. */
export const aclrtSynchronizeStream: Op<'aclrtSynchronizeStream'> = (context, { stream }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('stream-not-live', { stream }));
  return waitUntil(context, target.busyUntil, -1, streamWait(target.id));
};

/** A wait on stream `id`: 507046 when it outlasts the timeout, and the work goes on (CP-5). */
const streamWait = (id: number): Wait => ({ on: { stream: id }, what: 'stream', timedOut: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, goesOn: true });

/**
 * CP-5: as aclrtSynchronizeStream, but the host gives up after `timeout` ms (-1 waits for ever).
 * On the virtual clock the host waits min(the stream's remaining work, timeout); when the work
 * outlasts it, the call answers 507046 and the stream's work goes on.
 */
export const aclrtSynchronizeStreamWithTimeout: Op<'aclrtSynchronizeStreamWithTimeout'> = (context, { stream, timeout }) => {
  const refused = badTimeout(timeout);
  if (refused !== undefined) return refused;
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('stream-not-live', { stream }));
  return waitUntil(context, target.busyUntil, timeout, streamWait(target.id));
};

/** The time the process's work on its current device is done, or the failure to answer (no device). */
function deviceBusyUntil(context: SimContext): { device: number; until: number } | OpResult<never> {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  let until = context.state.time;
  for (const stream of context.state.streams.values()) {
    if (stream.pid === context.pid && stream.device === device.id && stream.busyUntil > until) until = stream.busyUntil;
  }
  return { device: device.id, until };
}

const deviceWait = (id: number): Wait => ({ on: { device: id }, what: 'device', timedOut: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, goesOn: true });

export const aclrtSynchronizeDevice: Op<'aclrtSynchronizeDevice'> = (context) => {
  const busy = deviceBusyUntil(context);
  return 'ret' in busy ? busy : waitUntil(context, busy.until, -1, deviceWait(busy.device));
};

/** CP-5 for the whole device: -1 waits for ever; 0 and other negatives are refused (107000, inferred for 0). */
export const aclrtSynchronizeDeviceWithTimeout: Op<'aclrtSynchronizeDeviceWithTimeout'> = (context, { timeout }) => {
  const refused = badTimeout(timeout);
  if (refused !== undefined) return refused;
  const busy = deviceBusyUntil(context);
  return 'ret' in busy ? busy : waitUntil(context, busy.until, timeout, deviceWait(busy.device));
};
