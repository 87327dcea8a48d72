import type { AclArgs, AclFunctionName, AclResult, AclRuntime } from '@pagelens/core';
import type { CallRunner } from './call-runner.ts';

/**
 * `AclRuntime` over the real ACL library: one method per catalogue function, all handed to the
 * CallRunner, which calls the library through koffi and records what the runtime did.
 */
export class AclFfiRuntime implements AclRuntime {
  readonly pid: number;
  readonly #runner: CallRunner;

  constructor(pid: number, runner: CallRunner) {
    this.pid = pid;
    this.#runner = runner;
  }

  async #call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
    const result = await this.#runner.call(this.pid, fn, args);
    // The runner builds the out-fields of `fn` from the catalogue (marshal.ts readOuts), by the same
    // table AclResult<F> is derived from; TypeScript cannot follow that link, hence the one cast.
    return result as AclResult<F>;
  }

  readonly aclInit = (args: AclArgs<'aclInit'>) => this.#call('aclInit', args);
  readonly aclFinalize = (args: AclArgs<'aclFinalize'>) => this.#call('aclFinalize', args);
  readonly aclrtSetDevice = (args: AclArgs<'aclrtSetDevice'>) => this.#call('aclrtSetDevice', args);
  readonly aclrtResetDevice = (args: AclArgs<'aclrtResetDevice'>) => this.#call('aclrtResetDevice', args);
  readonly aclrtResetDeviceForce = (args: AclArgs<'aclrtResetDeviceForce'>) => this.#call('aclrtResetDeviceForce', args);
  readonly aclrtGetDevice = (args: AclArgs<'aclrtGetDevice'>) => this.#call('aclrtGetDevice', args);
  readonly aclrtGetDeviceCount = (args: AclArgs<'aclrtGetDeviceCount'>) => this.#call('aclrtGetDeviceCount', args);
  readonly aclrtGetSocName = (args: AclArgs<'aclrtGetSocName'>) => this.#call('aclrtGetSocName', args);
  readonly aclrtCreateStream = (args: AclArgs<'aclrtCreateStream'>) => this.#call('aclrtCreateStream', args);
  readonly aclrtDestroyStream = (args: AclArgs<'aclrtDestroyStream'>) => this.#call('aclrtDestroyStream', args);
  readonly aclrtSynchronizeStream = (args: AclArgs<'aclrtSynchronizeStream'>) => this.#call('aclrtSynchronizeStream', args);
  readonly aclrtSynchronizeDevice = (args: AclArgs<'aclrtSynchronizeDevice'>) => this.#call('aclrtSynchronizeDevice', args);
  readonly aclrtMalloc = (args: AclArgs<'aclrtMalloc'>) => this.#call('aclrtMalloc', args);
  readonly aclrtMallocAlign32 = (args: AclArgs<'aclrtMallocAlign32'>) => this.#call('aclrtMallocAlign32', args);
  readonly aclrtMallocCached = (args: AclArgs<'aclrtMallocCached'>) => this.#call('aclrtMallocCached', args);
  readonly aclrtMallocWithCfg = (args: AclArgs<'aclrtMallocWithCfg'>) => this.#call('aclrtMallocWithCfg', args);
  readonly aclrtFree = (args: AclArgs<'aclrtFree'>) => this.#call('aclrtFree', args);
  readonly aclrtMallocHost = (args: AclArgs<'aclrtMallocHost'>) => this.#call('aclrtMallocHost', args);
  readonly aclrtMallocHostWithCfg = (args: AclArgs<'aclrtMallocHostWithCfg'>) => this.#call('aclrtMallocHostWithCfg', args);
  readonly aclrtFreeHost = (args: AclArgs<'aclrtFreeHost'>) => this.#call('aclrtFreeHost', args);
  readonly aclrtMemcpy = (args: AclArgs<'aclrtMemcpy'>) => this.#call('aclrtMemcpy', args);
  readonly aclrtMemcpyAsync = (args: AclArgs<'aclrtMemcpyAsync'>) => this.#call('aclrtMemcpyAsync', args);
  readonly aclrtMemset = (args: AclArgs<'aclrtMemset'>) => this.#call('aclrtMemset', args);
  readonly aclrtGetMemInfo = (args: AclArgs<'aclrtGetMemInfo'>) => this.#call('aclrtGetMemInfo', args);
  readonly aclrtHostRegister = (args: AclArgs<'aclrtHostRegister'>) => this.#call('aclrtHostRegister', args);
  readonly aclrtHostRegisterV2 = (args: AclArgs<'aclrtHostRegisterV2'>) => this.#call('aclrtHostRegisterV2', args);
  readonly aclrtHostUnregister = (args: AclArgs<'aclrtHostUnregister'>) => this.#call('aclrtHostUnregister', args);
  readonly aclrtHostGetDevicePointer = (args: AclArgs<'aclrtHostGetDevicePointer'>) => this.#call('aclrtHostGetDevicePointer', args);
  readonly aclrtPointerGetAttributes = (args: AclArgs<'aclrtPointerGetAttributes'>) => this.#call('aclrtPointerGetAttributes', args);
  readonly aclrtMemGetAllocationGranularity = (args: AclArgs<'aclrtMemGetAllocationGranularity'>) =>
    this.#call('aclrtMemGetAllocationGranularity', args);
  readonly aclrtMallocPhysical = (args: AclArgs<'aclrtMallocPhysical'>) => this.#call('aclrtMallocPhysical', args);
  readonly aclrtFreePhysical = (args: AclArgs<'aclrtFreePhysical'>) => this.#call('aclrtFreePhysical', args);
  readonly aclrtReserveMemAddress = (args: AclArgs<'aclrtReserveMemAddress'>) => this.#call('aclrtReserveMemAddress', args);
  readonly aclrtReleaseMemAddress = (args: AclArgs<'aclrtReleaseMemAddress'>) => this.#call('aclrtReleaseMemAddress', args);
  readonly aclrtMapMem = (args: AclArgs<'aclrtMapMem'>) => this.#call('aclrtMapMem', args);
  readonly aclrtUnmapMem = (args: AclArgs<'aclrtUnmapMem'>) => this.#call('aclrtUnmapMem', args);
  readonly aclrtMemSetAccess = (args: AclArgs<'aclrtMemSetAccess'>) => this.#call('aclrtMemSetAccess', args);
  readonly aclrtMemGetAccess = (args: AclArgs<'aclrtMemGetAccess'>) => this.#call('aclrtMemGetAccess', args);
  readonly aclrtMemExportToShareableHandle = (args: AclArgs<'aclrtMemExportToShareableHandle'>) =>
    this.#call('aclrtMemExportToShareableHandle', args);
  readonly aclrtMemImportFromShareableHandle = (args: AclArgs<'aclrtMemImportFromShareableHandle'>) =>
    this.#call('aclrtMemImportFromShareableHandle', args);
  readonly aclrtMemSetPidToShareableHandle = (args: AclArgs<'aclrtMemSetPidToShareableHandle'>) =>
    this.#call('aclrtMemSetPidToShareableHandle', args);
  readonly aclrtDeviceCanAccessPeer = (args: AclArgs<'aclrtDeviceCanAccessPeer'>) => this.#call('aclrtDeviceCanAccessPeer', args);
  readonly aclrtDeviceEnablePeerAccess = (args: AclArgs<'aclrtDeviceEnablePeerAccess'>) => this.#call('aclrtDeviceEnablePeerAccess', args);
  readonly aclGetRecentErrMsg = (args: AclArgs<'aclGetRecentErrMsg'>) => this.#call('aclGetRecentErrMsg', args);
  readonly malloc = (args: AclArgs<'malloc'>) => this.#call('malloc', args);
  readonly free = (args: AclArgs<'free'>) => this.#call('free', args);
}
