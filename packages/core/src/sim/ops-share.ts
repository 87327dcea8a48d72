import {
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_INVALID_HANDLE,
  ACL_ERROR_RT_NO_PERMISSION,
} from '../acl/errors.ts';
import { text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, ok } from './context.ts';

/** VM-9: one shareable handle per physical handle; the default flag turns on the PID allow-list. */
export const aclrtMemExportToShareableHandle: Op<'aclrtMemExportToShareableHandle'> = (context, { handle, handleType, flags }) => {
  if (handleType !== 0) return invalid(text('share-handle-type', { value: handleType }));
  if (flags !== 0 && flags !== 1) return invalid(text('share-export-flags', { flags }));
  const id = context.process.handleByValue.get(address(handle));
  const target = id === undefined ? undefined : context.state.handles.get(id);
  if (target === undefined) return fail(ACL_ERROR_RT_INVALID_HANDLE, text('handle-not-live', { handle }));
  if (target.importedFrom !== undefined) return invalid(text('share-imported', { handle }));
  for (const share of context.state.shares.values()) {
    if (share.handle === target.id) return ok({ shareableHandle: toHex(share.shareable) });
  }
  const shareable = context.host.newShareable();
  context.emit({ kind: 'export', id: target.id, shareable, flags });
  return ok({ shareableHandle: toHex(shareable) });
};

export const aclrtMemSetPidToShareableHandle: Op<'aclrtMemSetPidToShareableHandle'> = (context, { shareableHandle, pid, pidNum }) => {
  const share = context.state.shares.get(address(shareableHandle));
  if (share === undefined || share.pid !== context.pid) return invalid(text('share-not-exported', { shareable: shareableHandle }));
  if (pidNum === 0 || pidNum > pid.length) return invalid(text('pid-count', { name: 'pidNum', value: pidNum, given: pid.length }));
  context.emit({ kind: 'sharePids', shareable: share.shareable, pids: [...share.pids, ...pid.slice(0, pidNum)] });
  return done();
};

/** VM-9: another process of the same host imports the memory; the exporter itself cannot. */
export const aclrtMemImportFromShareableHandle: Op<'aclrtMemImportFromShareableHandle'> = (context, { shareableHandle, deviceId }) => {
  // LT-2: importing creates a memory handle in this process, which needs a current device.
  const current = currentDevice(context);
  if (isResult(current)) return current;
  const share = context.state.shares.get(address(shareableHandle));
  if (share === undefined) {
    return invalid(text('share-not-live', { shareable: shareableHandle }));
  }
  if (share.pid === context.pid) return invalid(text('share-import-own'));
  if (share.flags === 0 && !share.pids.includes(context.pid)) {
    return fail(ACL_ERROR_RT_NO_PERMISSION, text('share-not-allowed', { pid: context.pid }));
  }
  const target = context.state.devices[deviceId];
  if (target === undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('device-absent', { device: deviceId }));
  const source = context.state.handles.get(share.handle);
  const memory = source === undefined ? undefined : context.state.physical.get(source.memory);
  if (source === undefined || memory === undefined)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, text('share-memory-gone', { shareable: shareableHandle }));
  if (memory.device !== deviceId && !target.peers.has(memory.device)) {
    return invalid(text('share-needs-peer', { memoryDevice: memory.device, device: deviceId }));
  }
  const handle = context.host.newOpaque();
  context.emit({
    kind: 'import',
    pid: context.pid,
    id: context.host.newId(),
    source: source.id,
    handle,
    shareable: share.shareable,
    device: deviceId,
  });
  return ok({ handle: toHex(handle) });
};

/** DM-8: P2P needs both devices to support it; the ids must differ. */
export const aclrtDeviceCanAccessPeer: Op<'aclrtDeviceCanAccessPeer'> = (context, { deviceId, peerDeviceId }) => {
  const a = context.state.devices[deviceId];
  const b = context.state.devices[peerDeviceId];
  if (a === undefined || b === undefined)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('device-absent', { device: a === undefined ? deviceId : peerDeviceId }));
  if (deviceId === peerDeviceId) return invalid(text('peer-same-device'));
  return ok({ canAccessPeer: a.profile.features.p2p && b.profile.features.p2p ? 1 : 0 });
};

/** One direction only: from the current device to the peer. */
export const aclrtDeviceEnablePeerAccess: Op<'aclrtDeviceEnablePeerAccess'> = (context, { peerDeviceId, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (flags !== 0) return invalid(text('must-be-zero', { name: 'flags', value: flags }));
  const peer = context.state.devices[peerDeviceId];
  if (peer === undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('device-absent', { device: peerDeviceId }));
  if (peerDeviceId === device.id) return invalid(text('peer-self'));
  if (!device.profile.features.p2p || !peer.profile.features.p2p) return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('peer-no-p2p'));
  if (!device.peers.has(peerDeviceId)) context.emit({ kind: 'peerAccess', pid: context.pid, device: device.id, peer: peerDeviceId });
  return done();
};

/**
 * The reverse of aclrtDeviceEnablePeerAccess, from the current device. Disabling what was never
 * enabled is refused, as CUDA's cudaDeviceDisablePeerAccess refuses it (inferred: the ACL guide is silent).
 */
export const aclrtDeviceDisablePeerAccess: Op<'aclrtDeviceDisablePeerAccess'> = (context, { peerDeviceId }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (context.state.devices[peerDeviceId] === undefined)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('device-absent', { device: peerDeviceId }));
  if (!device.peers.has(peerDeviceId)) return invalid(text('peer-not-enabled', { device: device.id, peer: peerDeviceId }));
  context.emit({ kind: 'peerAccessOff', pid: context.pid, device: device.id, peer: peerDeviceId });
  return done();
};
