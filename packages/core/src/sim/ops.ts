import type { AclFunctionName } from '../acl/functions.ts';
import type { Op } from './context.ts';
import * as batch from './ops-batch.ts';
import * as contexts from './ops-context.ts';
import * as copy from './ops-copy.ts';
import * as device from './ops-device.ts';
import * as events from './ops-event.ts';
import * as host from './ops-host.ts';
import * as info from './ops-info.ts';
import * as ipc from './ops-ipc.ts';
import { free, malloc } from './ops-malloc.ts';
import * as share from './ops-share.ts';
import * as value from './ops-value.ts';
import * as vmm from './ops-vmm.ts';

/**
 * The simulator's operation for every catalogue function: a new function is one entry here (the
 * mapped type makes a missing one a compile error).
 */
export const SIM_OPS: { readonly [F in AclFunctionName]: Op<F> } = {
  aclInit: device.aclInit,
  aclFinalize: device.aclFinalize,
  aclrtSetDevice: device.aclrtSetDevice,
  aclrtResetDevice: device.aclrtResetDevice,
  aclrtResetDeviceForce: device.aclrtResetDeviceForce,
  aclrtGetDevice: device.aclrtGetDevice,
  aclrtGetDeviceCount: device.aclrtGetDeviceCount,
  aclrtGetRunMode: device.aclrtGetRunMode,
  aclrtGetSocName: device.aclrtGetSocName,
  aclrtCreateContext: contexts.aclrtCreateContext,
  aclrtDestroyContext: contexts.aclrtDestroyContext,
  aclrtSetCurrentContext: contexts.aclrtSetCurrentContext,
  aclrtGetCurrentContext: contexts.aclrtGetCurrentContext,
  aclrtCtxGetCurrentDefaultStream: contexts.aclrtCtxGetCurrentDefaultStream,
  aclrtCreateStream: device.aclrtCreateStream,
  aclrtCreateStreamWithConfig: device.aclrtCreateStreamWithConfig,
  aclrtDestroyStream: device.aclrtDestroyStream,
  aclrtDestroyStreamForce: device.aclrtDestroyStreamForce,
  aclrtSetStreamFailureMode: device.aclrtSetStreamFailureMode,
  aclrtStreamQuery: device.aclrtStreamQuery,
  aclrtSynchronizeStream: device.aclrtSynchronizeStream,
  aclrtSynchronizeStreamWithTimeout: device.aclrtSynchronizeStreamWithTimeout,
  aclrtSynchronizeDevice: device.aclrtSynchronizeDevice,
  aclrtSynchronizeDeviceWithTimeout: device.aclrtSynchronizeDeviceWithTimeout,
  aclrtCreateEvent: events.aclrtCreateEvent,
  aclrtCreateEventWithFlag: events.aclrtCreateEventWithFlag,
  aclrtCreateEventExWithFlag: events.aclrtCreateEventExWithFlag,
  aclrtRecordEvent: events.aclrtRecordEvent,
  aclrtStreamWaitEvent: events.aclrtStreamWaitEvent,
  aclrtSynchronizeEvent: events.aclrtSynchronizeEvent,
  aclrtSynchronizeEventWithTimeout: events.aclrtSynchronizeEventWithTimeout,
  aclrtQueryEventStatus: events.aclrtQueryEventStatus,
  aclrtResetEvent: events.aclrtResetEvent,
  aclrtDestroyEvent: events.aclrtDestroyEvent,
  aclrtEventElapsedTime: events.aclrtEventElapsedTime,
  aclrtEventGetTimestamp: events.aclrtEventGetTimestamp,
  aclrtMalloc: (c, a) => malloc(c, 'aclrtMalloc', a.size, a.policy, null),
  aclrtMallocAlign32: (c, a) => malloc(c, 'aclrtMallocAlign32', a.size, a.policy, null),
  aclrtMallocCached: (c, a) => malloc(c, 'aclrtMallocCached', a.size, a.policy, null),
  aclrtMallocWithCfg: (c, a) => malloc(c, 'aclrtMallocWithCfg', a.size, a.policy, a.cfg),
  aclrtFree: (c, a) => free(c, a.devPtr),
  aclrtMallocHost: host.aclrtMallocHost,
  aclrtMallocHostWithCfg: host.aclrtMallocHostWithCfg,
  aclrtFreeHost: host.aclrtFreeHost,
  aclrtMemcpy: copy.aclrtMemcpy,
  aclrtMemcpyAsync: copy.aclrtMemcpyAsync,
  aclrtMemset: copy.aclrtMemset,
  aclrtMemsetAsync: copy.aclrtMemsetAsync,
  aclrtMemcpy2d: copy.aclrtMemcpy2d,
  aclrtMemcpy2dAsync: copy.aclrtMemcpy2dAsync,
  aclrtMemcpyBatch: batch.aclrtMemcpyBatch,
  aclrtMemcpyBatchAsync: batch.aclrtMemcpyBatchAsync,
  aclrtValueWrite: value.aclrtValueWrite,
  aclrtValueWait: value.aclrtValueWait,
  aclrtMemFlush: copy.aclrtMemFlush,
  aclrtMemInvalidate: copy.aclrtMemInvalidate,
  aclrtGetMemInfo: info.aclrtGetMemInfo,
  aclrtHostRegister: host.aclrtHostRegister,
  aclrtHostRegisterV2: host.aclrtHostRegisterV2,
  aclrtHostUnregister: host.aclrtHostUnregister,
  aclrtHostGetDevicePointer: host.aclrtHostGetDevicePointer,
  aclrtPointerGetAttributes: info.aclrtPointerGetAttributes,
  aclrtCheckMemType: info.aclrtCheckMemType,
  aclrtGetMemUsageInfo: info.aclrtGetMemUsageInfo,
  aclrtMemGetAddressRange: info.aclrtMemGetAddressRange,
  aclrtMemGetAllocationGranularity: vmm.aclrtMemGetAllocationGranularity,
  aclrtMallocPhysical: vmm.aclrtMallocPhysical,
  aclrtFreePhysical: vmm.aclrtFreePhysical,
  aclrtReserveMemAddress: vmm.aclrtReserveMemAddress,
  aclrtReleaseMemAddress: vmm.aclrtReleaseMemAddress,
  aclrtMapMem: vmm.aclrtMapMem,
  aclrtUnmapMem: vmm.aclrtUnmapMem,
  aclrtMemSetAccess: vmm.aclrtMemSetAccess,
  aclrtMemRetainAllocationHandle: vmm.aclrtMemRetainAllocationHandle,
  aclrtMemGetAllocationPropertiesFromHandle: vmm.aclrtMemGetAllocationPropertiesFromHandle,
  aclrtMemGetAccess: vmm.aclrtMemGetAccess,
  aclrtMemExportToShareableHandle: share.aclrtMemExportToShareableHandle,
  aclrtMemImportFromShareableHandle: share.aclrtMemImportFromShareableHandle,
  aclrtMemSetPidToShareableHandle: share.aclrtMemSetPidToShareableHandle,
  aclrtIpcMemGetExportKey: ipc.aclrtIpcMemGetExportKey,
  aclrtIpcMemSetImportPid: ipc.aclrtIpcMemSetImportPid,
  aclrtIpcMemImportByKey: ipc.aclrtIpcMemImportByKey,
  aclrtIpcMemClose: ipc.aclrtIpcMemClose,
  aclrtDeviceCanAccessPeer: share.aclrtDeviceCanAccessPeer,
  aclrtDeviceEnablePeerAccess: share.aclrtDeviceEnablePeerAccess,
  aclGetRecentErrMsg: info.aclGetRecentErrMsg,
  malloc: host.malloc,
  free: host.free,
};
