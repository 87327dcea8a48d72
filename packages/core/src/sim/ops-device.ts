import {
  ACL_ERROR_REPEAT_FINALIZE,
  ACL_ERROR_REPEAT_INITIALIZE,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_PARAM_INVALID,
  ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
} from '../acl/errors.ts';
import type { Stream } from '../model/state.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, ok, type SimContext } from './context.ts';
import { releaseDeviceResources } from './teardown-device.ts';

/** LT-1: aclInit once per process; a repeat answers 100002, which is harmless. */
export const aclInit: Op<'aclInit'> = (context) => {
  if (context.process.initialized) return fail(ACL_ERROR_REPEAT_INITIALIZE, 'aclInit was already called in this process (LT-1; harmless)');
  context.emit({ kind: 'init', pid: context.pid });
  return done();
};

export const aclFinalize: Op<'aclFinalize'> = (context) => {
  if (!context.process.initialized) return fail(ACL_ERROR_REPEAT_FINALIZE, 'aclFinalize without a matching aclInit (LT-1)');
  context.emit({ kind: 'finalize', pid: context.pid });
  return done();
};

function checkDevice(context: SimContext, deviceId: number): string | undefined {
  if (deviceId < 0 || deviceId >= context.state.devices.length) {
    return `device ${deviceId} does not exist; this host has devices 0 to ${context.state.devices.length - 1}`;
  }
  return undefined;
}

/** LT-2: reference-counted; the first set creates the device's default context and stream. */
export const aclrtSetDevice: Op<'aclrtSetDevice'> = (context, { deviceId }) => {
  const problem = checkDevice(context, deviceId);
  if (problem !== undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, problem);
  const refs = (context.process.deviceRefs.get(deviceId) ?? 0) + 1;
  context.emit({ kind: 'deviceSet', pid: context.pid, device: deviceId, refs });
  if (refs === 1) {
    context.emit({ kind: 'streamCreate', pid: context.pid, device: deviceId, id: context.host.newId(), handle: 0, isDefault: true });
  }
  return done();
};

function resetDevice(context: SimContext, deviceId: number, force: boolean) {
  const problem = checkDevice(context, deviceId);
  if (problem !== undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, problem);
  const before = context.process.deviceRefs.get(deviceId) ?? 0;
  if (before === 0) return fail(ACL_ERROR_RT_CONTEXT_NULL, `device ${deviceId} is not set in this process: nothing to reset (LT-2)`);
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

/** With several devices it always reports device 0 (acl-api.md §5). */
export const aclrtGetSocName: Op<'aclrtGetSocName'> = (context) => ok({ socName: context.state.devices[0]?.profile.name ?? null });

export const aclrtCreateStream: Op<'aclrtCreateStream'> = (context) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const handle = context.host.newOpaque();
  context.emit({ kind: 'streamCreate', pid: context.pid, device: device.id, id: context.host.newId(), handle, isDefault: false });
  return ok({ stream: toHex(handle) });
};

/** The stream a handle names in this process; NULL is the current device's default stream. */
export function resolveStream(context: SimContext, hex: string): Stream | undefined {
  const handle = address(hex);
  const id = handle === 0 ? context.process.defaultStreams.get(context.process.currentDevice) : context.process.streamByHandle.get(handle);
  return id === undefined ? undefined : context.state.streams.get(id);
}

export const aclrtDestroyStream: Op<'aclrtDestroyStream'> = (context, { stream }) => {
  if (address(stream) === 0) return invalid('stream is NULL: the default stream cannot be destroyed');
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, `stream ${stream} is not a live stream of this process`);
  // Destroying a stream does not wait for its work in the model; the work still finishes on the device.
  context.emit({ kind: 'streamDestroy', id: target.id });
  return done();
};

/** CP-4: the host waits until the stream's queued work is done. */
export const aclrtSynchronizeStream: Op<'aclrtSynchronizeStream'> = (context, { stream }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, `stream ${stream} is not a live stream of this process`);
  if (target.busyUntil > context.state.time) {
    context.emit({ kind: 'sync', pid: context.pid, stream: target.id, until: target.busyUntil });
  }
  return done();
};

/**
 * CP-5: as aclrtSynchronizeStream, but the host gives up after `timeout` ms (-1 waits for ever).
 * On the virtual clock the host waits min(the stream's remaining work, timeout); when the work
 * outlasts it, the call answers 507046 and the stream's work goes on.
 */
export const aclrtSynchronizeStreamWithTimeout: Op<'aclrtSynchronizeStreamWithTimeout'> = (context, { stream, timeout }) => {
  if (timeout !== -1 && timeout <= 0)
    return invalid(`timeout must be -1 (wait for ever) or a number of milliseconds above 0, not ${timeout} (CP-5)`);
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const target = resolveStream(context, stream);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, `stream ${stream} is not a live stream of this process`);
  const now = context.state.time;
  const deadline = timeout === -1 ? Number.POSITIVE_INFINITY : now + timeout * 1_000_000;
  if (target.busyUntil <= now) return done();
  if (target.busyUntil <= deadline) {
    context.emit({ kind: 'sync', pid: context.pid, stream: target.id, until: target.busyUntil });
    return done();
  }
  context.emit({ kind: 'sync', pid: context.pid, stream: target.id, until: deadline });
  return fail(
    ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
    `the stream's work runs ${((target.busyUntil - now) / 1e6).toFixed(3)} ms more, past the ${timeout} ms timeout; it goes on (CP-5)`,
  );
};

export const aclrtSynchronizeDevice: Op<'aclrtSynchronizeDevice'> = (context) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  let until = context.state.time;
  for (const stream of context.state.streams.values()) {
    if (stream.pid === context.pid && stream.device === device.id && stream.busyUntil > until) until = stream.busyUntil;
  }
  if (until > context.state.time) context.emit({ kind: 'sync', pid: context.pid, device: device.id, until });
  return done();
};
