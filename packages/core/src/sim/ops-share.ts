import {
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_INVALID_HANDLE,
  ACL_ERROR_RT_NO_PERMISSION,
} from '../acl/errors.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, ok } from './context.ts';

/** VM-9: one shareable handle per physical handle; the default flag turns on the PID allow-list. */
export const aclrtMemExportToShareableHandle: Op<'aclrtMemExportToShareableHandle'> = (context, { handle, handleType, flags }) => {
  if (handleType !== 0) return invalid(`handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not ${handleType} (VM-9)`);
  if (flags !== 0 && flags !== 1)
    return invalid(`flags must be ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or _DISABLE_PID_VALIDATION (1), not ${flags}`);
  const id = context.process.handleByValue.get(address(handle));
  const target = id === undefined ? undefined : context.state.handles.get(id);
  if (target === undefined)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `handle ${handle} is not a live physical memory handle of this process`);
  if (target.importedFrom !== undefined)
    return invalid(`handle ${handle} was imported; only the process that allocated the memory exports it (VM-9)`);
  for (const share of context.state.shares.values()) {
    if (share.handle === target.id) return ok({ shareableHandle: toHex(share.shareable) });
  }
  const shareable = context.host.newShareable();
  context.emit({ kind: 'export', id: target.id, shareable, flags });
  return ok({ shareableHandle: toHex(shareable) });
};

export const aclrtMemSetPidToShareableHandle: Op<'aclrtMemSetPidToShareableHandle'> = (context, { shareableHandle, pid, pidNum }) => {
  const share = context.state.shares.get(address(shareableHandle));
  if (share === undefined || share.pid !== context.pid)
    return invalid(`${shareableHandle} is not a shareable handle this process exported (VM-9)`);
  if (pidNum === 0 || pidNum > pid.length) return invalid(`pidNum ${pidNum} must be between 1 and the ${pid.length} pids given`);
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
    return invalid(
      `${shareableHandle} is not a live shareable handle on this host: it was never exported, or its exporter has freed the memory (VM-11)`,
    );
  }
  if (share.pid === context.pid) return invalid('the process that exported a handle cannot import it; import it in another process (VM-9)');
  if (share.flags === 0 && !share.pids.includes(context.pid)) {
    return fail(
      ACL_ERROR_RT_NO_PERMISSION,
      `pid ${context.pid} is not on the handle's allow-list: the exporter must call aclrtMemSetPidToShareableHandle (VM-9)`,
    );
  }
  const target = context.state.devices[deviceId];
  if (target === undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, `device ${deviceId} does not exist`);
  const source = context.state.handles.get(share.handle);
  const memory = source === undefined ? undefined : context.state.physical.get(source.memory);
  if (source === undefined || memory === undefined)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `the memory behind ${shareableHandle} is gone`);
  if (memory.device !== deviceId && !target.peers.has(memory.device)) {
    return invalid(
      `the memory is on device ${memory.device}; importing it on device ${deviceId} needs aclrtDeviceEnablePeerAccess first (VM-9)`,
    );
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
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, `device ${a === undefined ? deviceId : peerDeviceId} does not exist`);
  if (deviceId === peerDeviceId) return invalid('deviceId and peerDeviceId must differ');
  return ok({ canAccessPeer: a.profile.features.p2p && b.profile.features.p2p ? 1 : 0 });
};

/** One direction only: from the current device to the peer. */
export const aclrtDeviceEnablePeerAccess: Op<'aclrtDeviceEnablePeerAccess'> = (context, { peerDeviceId, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (flags !== 0) return invalid(`flags must be 0, not ${flags}`);
  const peer = context.state.devices[peerDeviceId];
  if (peer === undefined) return fail(ACL_ERROR_RT_INVALID_DEVICEID, `device ${peerDeviceId} does not exist`);
  if (peerDeviceId === device.id) return invalid('a device cannot enable peer access to itself');
  if (!device.profile.features.p2p || !peer.profile.features.p2p)
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 'these devices have no P2P (DM-8)');
  if (!device.peers.has(peerDeviceId)) context.emit({ kind: 'peerAccess', pid: context.pid, device: device.id, peer: peerDeviceId });
  return done();
};
