/**
 * aclError codes (acl-api.md §6): the int32 every aclrt* call returns, 0 on success.
 *
 * 100xxx..500xxx are `static const int` in acl_base_rt.h; 107xxx, 207xxx and 507xxx are macros
 * in error_codes/rt_error_codes.h, and the acl layer passes them through unchanged.
 *
 * Not listed: the graph-engine codes of ge_error_codes.h (145xxx, 245xxx, 345xxx, 545xxx).
 * They are uint32 status values of model compile/load APIs, not aclError, and no memory,
 * device or stream call returns them.
 */

export const ACL_SUCCESS = 0;
/** Every C spelling of success; all three are 0 in the headers. */
export const ACL_SUCCESS_NAMES: readonly string[] = ['ACL_SUCCESS', 'ACL_ERROR_NONE', 'ACL_RT_SUCCESS'];

// The codes a memory simulator returns. The table below is the full list.
export const ACL_ERROR_INVALID_PARAM = 100000;
export const ACL_ERROR_UNINITIALIZE = 100001;
export const ACL_ERROR_REPEAT_INITIALIZE = 100002;
export const ACL_ERROR_REPEAT_FINALIZE = 100037;
export const ACL_ERROR_BAD_ALLOC = 200000;
export const ACL_ERROR_API_NOT_SUPPORT = 200001;
export const ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
export const ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
export const ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
export const ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
export const ACL_ERROR_STORAGE_OVER_LIMIT = 300000;
export const ACL_ERROR_INTERNAL_ERROR = 500000;
export const ACL_ERROR_FAILURE = 500001;
export const ACL_ERROR_RT_PARAM_INVALID = 107000;
export const ACL_ERROR_RT_INVALID_DEVICEID = 107001;
export const ACL_ERROR_RT_CONTEXT_NULL = 107002;
export const ACL_ERROR_RT_STREAM_CONTEXT = 107003;
export const ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006;
export const ACL_ERROR_RT_ADDR_UNALIGNED = 107008;
export const ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107016;
export const ACL_ERROR_RT_INVALID_HANDLE = 107017;
export const ACL_ERROR_RT_INVALID_MALLOC_TYPE = 107018;
export const ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY = 107039;
export const ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;
/** Driver out-of-memory and host allocation failure both surface as this code. */
export const ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
export const ACL_ERROR_RT_MEMORY_FREE = 207002;
export const ACL_ERROR_RT_NO_DEVICE = 207004;
export const ACL_ERROR_RT_RESOURCE_ALLOC_FAIL = 207005;
export const ACL_ERROR_RT_NO_PERMISSION = 207006;
export const ACL_ERROR_RT_OVER_LIMIT = 207012;
/** The runtime's RT_ERROR_DEVICE_OOM, distinct from the driver OOM that gives 207001. */
export const ACL_ERROR_RT_DEVICE_OOM = 207018;
export const ACL_ERROR_RT_INTERNAL_ERROR = 507000;
export const ACL_ERROR_RT_IPC_ERROR = 507022;
export const ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046;
export const ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047;
export const ACL_ERROR_RT_COPY_DATA = 507052;
export const ACL_ERROR_RT_DRV_INTERNAL_ERROR = 507899;
export const ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 507910;
export const ACL_ERROR_HOST_MEMORY_NOT_REGISTERED = 507911;

/**
 * The header block a code belongs to. 'caller-extended' is the 148xxx block: it continues the
 * 1000xx numbering (100045 → 148046) with more caller mistakes, under a different prefix.
 */
export type AclErrorRange =
  | 'caller'
  | 'caller-extended'
  | 'resource'
  | 'storage'
  | 'internal'
  | 'runtime-caller'
  | 'runtime-resource'
  | 'runtime-internal';

export interface AclErrorInfo {
  readonly code: number;
  /** Full C name, with the ACL_ERROR_ prefix. */
  readonly name: string;
  readonly message: string;
  readonly range: AclErrorRange;
}

/** [code, name without ACL_ERROR_, message]. */
type Row = readonly [number, string, string];

const CALLER: readonly Row[] = [
  [100000, 'INVALID_PARAM', 'An argument is invalid: a null pointer, a zero size or a non-zero reserved field.'],
  [100001, 'UNINITIALIZE', 'ACL is not initialised yet; call aclInit first.'],
  [100002, 'REPEAT_INITIALIZE', 'This process already called aclInit; the repeat is harmless.'],
  [100003, 'INVALID_FILE', 'The file given is not valid for this call.'],
  [100004, 'WRITE_FILE', 'Writing a file failed.'],
  [100005, 'INVALID_FILE_SIZE', 'The file has a size this call cannot accept.'],
  [100006, 'PARSE_FILE', 'The file could not be parsed.'],
  [100007, 'FILE_MISSING_ATTR', 'The file lacks an attribute this call needs.'],
  [100008, 'FILE_ATTR_INVALID', 'An attribute in the file has an invalid value.'],
  [100009, 'INVALID_DUMP_CONFIG', 'The dump configuration is not valid.'],
  [100010, 'INVALID_PROFILING_CONFIG', 'The profiling configuration is not valid.'],
  [100011, 'INVALID_MODEL_ID', 'No loaded model has this model id.'],
  [100012, 'DESERIALIZE_MODEL', 'The model could not be deserialised.'],
  [100013, 'PARSE_MODEL', 'The model could not be parsed.'],
  [100014, 'READ_MODEL_FAILURE', 'The model could not be read.'],
  [100015, 'MODEL_SIZE_INVALID', 'The model size is not valid.'],
  [100016, 'MODEL_MISSING_ATTR', 'The model lacks an attribute this call needs.'],
  [100017, 'MODEL_INPUT_NOT_MATCH', 'The inputs given do not match what the model expects.'],
  [100018, 'MODEL_OUTPUT_NOT_MATCH', 'The outputs given do not match what the model produces.'],
  [100019, 'MODEL_NOT_DYNAMIC', 'The model is not dynamic, so its shapes cannot change.'],
  [100020, 'OP_TYPE_NOT_MATCH', 'The operator type does not match.'],
  [100021, 'OP_INPUT_NOT_MATCH', 'The operator inputs do not match its definition.'],
  [100022, 'OP_OUTPUT_NOT_MATCH', 'The operator outputs do not match its definition.'],
  [100023, 'OP_ATTR_NOT_MATCH', 'The operator attributes do not match its definition.'],
  [100024, 'OP_NOT_FOUND', 'No operator matches the description given.'],
  [100025, 'OP_LOAD_FAILED', 'The operator could not be loaded.'],
  [100026, 'UNSUPPORTED_DATA_TYPE', 'The data type is not supported here.'],
  [100027, 'FORMAT_NOT_MATCH', 'The tensor format does not match.'],
  [100028, 'BIN_SELECTOR_NOT_REGISTERED', 'No binary selector is registered for this operator.'],
  [100029, 'KERNEL_NOT_FOUND', 'No compiled kernel was found for this operator.'],
  [100030, 'BIN_SELECTOR_ALREADY_REGISTERED', 'A binary selector is already registered for this operator.'],
  [100031, 'KERNEL_ALREADY_REGISTERED', 'This kernel is already registered.'],
  [100032, 'INVALID_QUEUE_ID', 'No queue has this id.'],
  [100033, 'REPEAT_SUBSCRIBE', 'This subscription already exists.'],
  [100034, 'STREAM_NOT_SUBSCRIBE', 'No report thread is subscribed to the stream.'],
  [100035, 'THREAD_NOT_SUBSCRIBE', 'The thread is not subscribed to report callbacks.'],
  [100036, 'WAIT_CALLBACK_TIMEOUT', 'Waiting for a callback timed out.'],
  [100037, 'REPEAT_FINALIZE', 'This process already called aclFinalize.'],
  [100038, 'NOT_STATIC_AIPP', 'The model has no static AIPP configuration.'],
  [100039, 'COMPILING_STUB_MODE', 'The library loaded is a build-time stub, not the real runtime.'],
  [100040, 'GROUP_NOT_SET', 'No compute group is set.'],
  [100041, 'GROUP_NOT_CREATE', 'The compute group has not been created.'],
  [100042, 'PROF_ALREADY_RUN', 'Profiling is already running.'],
  [100043, 'PROF_NOT_RUN', 'Profiling has not been initialised.'],
  [100044, 'DUMP_ALREADY_RUN', 'A dump task already exists.'],
  [100045, 'DUMP_NOT_RUN', 'Dumping has not been initialised.'],
];

const CALLER_EXTENDED: readonly Row[] = [
  [148046, 'PROF_REPEAT_SUBSCRIBE', 'The same model was subscribed for profiling twice.'],
  [148047, 'PROF_API_CONFLICT', 'Two profiling interfaces were mixed in a way they do not allow.'],
  [148048, 'INVALID_MAX_OPQUEUE_NUM_CONFIG', 'The operator cache ageing setting is not valid.'],
  [148049, 'INVALID_OPP_PATH', 'ASCEND_OPP_PATH is unset or points to the wrong place.'],
  [148050, 'OP_UNSUPPORTED_DYNAMIC', 'The operator does not support dynamic shapes.'],
  [148051, 'RELATIVE_RESOURCE_NOT_CLEARED', 'Related resources must be released first.'],
  [148052, 'UNSUPPORTED_JPEG', 'This JPEG image is not supported.'],
  [148053, 'INVALID_BUNDLE_MODEL_ID', 'No bundle model has this id.'],
];

const RESOURCE: readonly Row[] = [
  [200000, 'BAD_ALLOC', 'ACL could not allocate the memory this request needs.'],
  [200001, 'API_NOT_SUPPORT', 'This API is not supported on this product or version.'],
  [200002, 'INVALID_DEVICE', 'The device is not valid (deprecated: the runtime reports 107001 instead).'],
  [200003, 'MEMORY_ADDRESS_UNALIGNED', 'The memory address is not aligned as this call requires.'],
  [200004, 'RESOURCE_NOT_MATCH', 'The resources given do not belong together.'],
  [200005, 'INVALID_RESOURCE_HANDLE', 'The resource handle is not valid.'],
  [200006, 'FEATURE_UNSUPPORTED', 'The feature is not supported here.'],
  [200007, 'PROF_MODULES_UNSUPPORTED', 'A profiling module asked for is not supported.'],
];

const STORAGE: readonly Row[] = [[300000, 'STORAGE_OVER_LIMIT', 'The request goes over a storage limit.']];

const INTERNAL: readonly Row[] = [
  [500000, 'INTERNAL_ERROR', 'ACL hit an internal error.'],
  [500001, 'FAILURE', 'ACL failed for a reason it does not name.'],
  [500002, 'GE_FAILURE', 'The graph engine failed.'],
  [500003, 'RT_FAILURE', 'The runtime failed.'],
  [500004, 'DRV_FAILURE', 'The driver failed.'],
  [500005, 'PROFILING_FAILURE', 'Profiling failed.'],
];

const RUNTIME_CALLER: readonly Row[] = [
  [107000, 'RT_PARAM_INVALID', 'The runtime rejected an argument as invalid.'],
  [107001, 'RT_INVALID_DEVICEID', 'No device has this id.'],
  [107002, 'RT_CONTEXT_NULL', 'The calling thread has no current context; set a device or a context first.'],
  [107003, 'RT_STREAM_CONTEXT', 'The stream does not belong to the current context.'],
  [107004, 'RT_MODEL_CONTEXT', 'The model does not belong to the current context.'],
  [107005, 'RT_STREAM_MODEL', 'The stream is not bound to this model.'],
  [107006, 'RT_EVENT_TIMESTAMP_INVALID', 'The event has no valid timestamp.'],
  [107007, 'RT_EVENT_TIMESTAMP_REVERSAL', 'The end event was recorded before the start event.'],
  [107008, 'RT_ADDR_UNALIGNED', 'The runtime found a memory address that is not aligned as required.'],
  [107009, 'RT_FILE_OPEN', 'The runtime could not open a file.'],
  [107010, 'RT_FILE_WRITE', 'The runtime could not write a file.'],
  [107011, 'RT_STREAM_SUBSCRIBE', 'Subscribing the stream failed.'],
  [107012, 'RT_THREAD_SUBSCRIBE', 'Subscribing the thread failed.'],
  [107013, 'RT_GROUP_NOT_SET', 'No group is set for this runtime call.'],
  [107014, 'RT_GROUP_NOT_CREATE', 'The runtime group has not been created.'],
  [107015, 'RT_STREAM_NO_CB_REG', 'No callback is registered on this stream.'],
  [107016, 'RT_INVALID_MEMORY_TYPE', 'The memory type is not valid for this call.'],
  [107017, 'RT_INVALID_HANDLE', 'The handle is not valid: it was never created or is already released.'],
  [107018, 'RT_INVALID_MALLOC_TYPE', 'The allocation type is not valid.'],
  [107019, 'RT_WAIT_TIMEOUT', 'A wait timed out.'],
  [107020, 'RT_TASK_TIMEOUT', 'A task timed out.'],
  [107021, 'RT_SYSPARAMOPT_NOT_SET', 'The system parameter option has not been set.'],
  [107022, 'RT_DEVICE_TASK_ABORT', 'Tasks on the device are being aborted.'],
  [107023, 'RT_STREAM_ABORT', 'The stream is being aborted.'],
  [107024, 'RT_CAPTURE_DEPENDENCY', 'A dependency could not be captured.'],
  [107025, 'RT_STREAM_UNJOINED', 'A stream in the capture was not joined back before it ended.'],
  [107026, 'RT_MODEL_CAPTURED', 'The model is being captured.'],
  [107027, 'RT_STREAM_CAPTURED', 'The stream is being captured, which this call does not allow.'],
  [107028, 'RT_EVENT_CAPTURED', 'The event belongs to a capture in progress.'],
  [107029, 'RT_STREAM_NOT_CAPTURED', 'The stream is not capturing.'],
  [107030, 'RT_CAPTURE_MODE_NOT_SUPPORT', 'This call is not allowed while the stream is capturing.'],
  [107031, 'RT_STREAM_CAPTURE_IMPLICIT', 'The capture would take a forbidden implicit dependency on the default stream.'],
  [107032, 'STREAM_CAPTURE_CONFLICT', 'Streams that depend on each other cannot start capturing together.'],
  [107033, 'STREAM_TASK_GROUP_STATUS', 'The task group is in the wrong state for this call.'],
  [107034, 'STREAM_TASK_GROUP_INTR', 'The task group was interrupted.'],
  [107035, 'RT_TASK_ABORT_STOP', 'Device tasks were aborted before post-processing.'],
  [107036, 'RT_STREAM_CAPTURE_UNMATCHED', 'The capture was not started on this stream.'],
  [107037, 'RT_MODEL_RUNNING', 'The model is still running.'],
  [107038, 'RT_STREAM_CAPTURE_WRONG_THREAD', 'Capture must end on the thread that began it.'],
  [107039, 'RT_INSUFFICIENT_INPUT_ARRAY', 'The array given is too small for the result.'],
  [107040, 'RT_MODEL_UPDATE_FAILED', 'Updating the model failed.'],
  [107041, 'RT_CAPTURE_MODE_BLOCK_ASYNC', 'This call would make asynchronous work synchronous, which capture forbids.'],
  [107042, 'RT_SYMBOL_NOT_FOUND', 'The symbol was not found.'],
  [107043, 'RT_INVALID_SYMBOL', 'The symbol is not valid.'],
  [107044, 'RT_INVALID_DEVICE_FUNCTION', 'The device function is not valid.'],
  [107045, 'RT_SUB_ACLGRAPH_IS_CAPTURING', 'A sub-graph is still being captured.'],
];

const RUNTIME_RESOURCE: readonly Row[] = [
  [207000, 'RT_FEATURE_NOT_SUPPORT', 'The chip or driver does not support this feature, for example 1 GiB pages.'],
  [207001, 'RT_MEMORY_ALLOCATION', 'The runtime could not allocate the memory: the pool this request needs has no room left.'],
  [207002, 'RT_MEMORY_FREE', 'The runtime could not free the memory.'],
  [207003, 'RT_AICORE_OVER_FLOW', 'An AI Core computation overflowed.'],
  [207004, 'RT_NO_DEVICE', 'No device is available.'],
  [207005, 'RT_RESOURCE_ALLOC_FAIL', 'The runtime could not allocate a resource.'],
  [207006, 'RT_NO_PERMISSION', 'The process lacks permission for this operation.'],
  [207007, 'RT_NO_EVENT_RESOURCE', 'No event resources are left.'],
  [207008, 'RT_NO_STREAM_RESOURCE', 'No stream resources are left.'],
  [207009, 'RT_NO_NOTIFY_RESOURCE', 'No notify resources are left.'],
  [207010, 'RT_NO_MODEL_RESOURCE', 'No model resources are left.'],
  [207011, 'RT_NO_CDQ_RESOURCE', 'No CDQ resources are left.'],
  [207012, 'RT_OVER_LIMIT', 'The request goes over a runtime limit.'],
  [207013, 'RT_QUEUE_EMPTY', 'The queue is empty.'],
  [207014, 'RT_QUEUE_FULL', 'The queue is full.'],
  [207015, 'RT_REPEATED_INIT', 'The runtime was initialised twice.'],
  [207016, 'RT_AIVEC_OVER_FLOW', 'An AI Vector computation overflowed.'],
  [207017, 'RT_OVER_FLOW', 'A computation overflowed.'],
  // The API docs spell this one ACL_ERROR_RT_DEVIDE_OOM; the header says DEVICE (see ACL_ERROR_ALIASES).
  [207018, 'RT_DEVICE_OOM', 'The device ran out of memory.'],
  [207019, 'RT_FEATURE_NOT_SUPPORT_UPDATE_OP', 'This operator cannot be updated.'],
  [207020, 'RT_TIMEOUT', 'The driver timed out.'],
  [207021, 'RT_LINK_TYPE_NOT_SUPPORTED', 'The link type is not supported.'],
];

const RUNTIME_INTERNAL: readonly Row[] = [
  [507000, 'RT_INTERNAL_ERROR', 'The runtime hit an internal error.'],
  [507001, 'RT_TS_ERROR', 'The task scheduler hit an internal error.'],
  [507002, 'RT_STREAM_TASK_FULL', 'The task queue of the stream is full.'],
  [507003, 'RT_STREAM_TASK_EMPTY', 'The task queue of the stream is empty.'],
  [507004, 'RT_STREAM_NOT_COMPLETE', 'The stream has not finished its work.'],
  [507005, 'RT_END_OF_SEQUENCE', 'The end of the sequence was reached.'],
  [507006, 'RT_EVENT_NOT_COMPLETE', 'The event has not completed.'],
  [507007, 'RT_CONTEXT_RELEASE_ERROR', 'Releasing the context failed.'],
  [507008, 'RT_SOC_VERSION', 'The SoC version is wrong or could not be found.'],
  [507009, 'RT_TASK_TYPE_NOT_SUPPORT', 'The task type is not supported.'],
  [507010, 'RT_LOST_HEARTBEAT', 'The task scheduler stopped sending heartbeats.'],
  [507011, 'RT_MODEL_EXECUTE', 'Running the model failed.'],
  [507012, 'RT_REPORT_TIMEOUT', 'Waiting for a task report timed out.'],
  [507013, 'RT_SYS_DMA', 'A system DMA transfer failed.'],
  [507014, 'RT_AICORE_TIMEOUT', 'An AI Core task timed out.'],
  [507015, 'RT_AICORE_EXCEPTION', 'An AI Core task raised an exception.'],
  [507016, 'RT_AICORE_TRAP_EXCEPTION', 'An AI Core task hit a trap.'],
  [507017, 'RT_AICPU_TIMEOUT', 'An AI CPU task timed out.'],
  [507018, 'RT_AICPU_EXCEPTION', 'An AI CPU task raised an exception.'],
  [507019, 'RT_AICPU_DATADUMP_RSP_ERR', 'The AI CPU answered a data dump request with an error.'],
  [507020, 'RT_AICPU_MODEL_RSP_ERR', 'The AI CPU answered a model operation with an error.'],
  [507021, 'RT_PROFILING_ERROR', 'Runtime profiling failed.'],
  [507022, 'RT_IPC_ERROR', 'Sharing a resource between processes failed.'],
  [507023, 'RT_MODEL_ABORT_NORMAL', 'The model was aborted on request.'],
  [507024, 'RT_KERNEL_UNREGISTERING', 'The kernel is being unregistered.'],
  [507025, 'RT_RINGBUFFER_NOT_INIT', 'The ring buffer is not initialised.'],
  [507026, 'RT_RINGBUFFER_NO_DATA', 'The ring buffer holds no data.'],
  [507027, 'RT_KERNEL_LOOKUP', 'Looking up the kernel failed.'],
  [507028, 'RT_KERNEL_DUPLICATE', 'The kernel was registered twice.'],
  [507029, 'RT_DEBUG_REGISTER_FAIL', 'Registering for debugging failed.'],
  [507030, 'RT_DEBUG_UNREGISTER_FAIL', 'Unregistering from debugging failed.'],
  [507031, 'RT_LABEL_CONTEXT', 'The label does not belong to the current context.'],
  [507032, 'RT_PROGRAM_USE_OUT', 'No program registration slots are left.'],
  [507033, 'RT_DEV_SETUP_ERROR', 'Setting up the device failed.'],
  [507034, 'RT_VECTOR_CORE_TIMEOUT', 'A Vector Core task timed out.'],
  [507035, 'RT_VECTOR_CORE_EXCEPTION', 'A Vector Core task raised an exception.'],
  [507036, 'RT_VECTOR_CORE_TRAP_EXCEPTION', 'A Vector Core task hit a trap.'],
  [507037, 'RT_CDQ_BATCH_ABNORMAL', 'A CDQ batch allocation went wrong.'],
  [507038, 'RT_DIE_MODE_CHANGE_ERROR', 'The die mode cannot be changed.'],
  [507039, 'RT_DIE_SET_ERROR', 'A die cannot be chosen in single-die mode.'],
  [507040, 'RT_INVALID_DIEID', 'No die has this id.'],
  [507041, 'RT_DIE_MODE_NOT_SET', 'The die mode has not been set.'],
  [507042, 'RT_AICORE_TRAP_READ_OVERFLOW', 'An AI Core task read out of bounds and hit a trap.'],
  [507043, 'RT_AICORE_TRAP_WRITE_OVERFLOW', 'An AI Core task wrote out of bounds and hit a trap.'],
  [507044, 'RT_VECTOR_CORE_TRAP_READ_OVERFLOW', 'A Vector Core task read out of bounds and hit a trap.'],
  [507045, 'RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW', 'A Vector Core task wrote out of bounds and hit a trap.'],
  [507046, 'RT_STREAM_SYNC_TIMEOUT', 'Synchronising the stream timed out.'],
  [507047, 'RT_EVENT_SYNC_TIMEOUT', 'Synchronising the event timed out.'],
  [507048, 'RT_FFTS_PLUS_TIMEOUT', 'An FFTS+ task timed out.'],
  [507049, 'RT_FFTS_PLUS_EXCEPTION', 'An FFTS+ task raised an exception.'],
  [507050, 'RT_FFTS_PLUS_TRAP_EXCEPTION', 'An FFTS+ task hit a trap.'],
  [507051, 'RT_SEND_MSG', 'Sending a message between host and device failed.'],
  [507052, 'RT_COPY_DATA', 'Copying data failed.'],
  [507053, 'RT_DEVICE_MEM_ERROR', 'The device memory reported an error.'],
  [507054, 'RT_HBM_MULTI_BIT_ECC_ERROR', 'HBM reported a multi-bit ECC error that cannot be corrected.'],
  [507055, 'RT_SUSPECT_DEVICE_MEM_ERROR', 'A device memory error is suspected.'],
  [507056, 'RT_LINK_ERROR', 'A link between chips failed.'],
  [507057, 'RT_SUSPECT_REMOTE_ERROR', 'An error on a remote device is suspected.'],
  [507899, 'RT_DRV_INTERNAL_ERROR', 'The driver hit an internal error.'],
  [507900, 'RT_AICPU_INTERNAL_ERROR', 'The AI CPU hit an internal error.'],
  [507901, 'RT_SOCKET_CLOSE', 'The connection between host and device was closed.'],
  [507902, 'RT_AICPU_INFO_LOAD_RSP_ERR', 'The AI CPU answered an info load request with an error.'],
  [507903, 'RT_STREAM_CAPTURE_INVALIDATED', 'The capture was invalidated by an earlier error.'],
  [507904, 'RT_COMM_OP_RETRY_FAIL', 'Retrying a collective communication operation failed.'],
  [507905, 'SNAPSHOT_LOCK_TIMEOUT', 'Taking the snapshot lock timed out.'],
  [507906, 'SNAPSHOT_LOCK_FAILED', 'Taking the snapshot lock failed.'],
  [507907, 'SNAPSHOT_UNLOCK_FAILED', 'Releasing the snapshot lock failed.'],
  [507908, 'SNAPSHOT_BACKUP_FAILED', 'Saving the snapshot failed.'],
  [507909, 'SNAPSHOT_RESTORE_FAILED', 'Restoring the snapshot failed.'],
  [507910, 'HOST_MEMORY_ALREADY_REGISTERED', 'This host memory range is already registered with the device.'],
  [507911, 'HOST_MEMORY_NOT_REGISTERED', 'This host memory is not registered with the device.'],
  [507912, 'SNAPSHOT_CALLBACK_FAILED', 'A snapshot callback failed.'],
  [507913, 'SNAPSHOT_REGISTER_CALLBACK_FAILED', 'Registering a snapshot callback failed.'],
  [507914, 'RT_L3_PORT_ERROR', 'A unified-bus memory port reported an error.'],
  // One stored copy of rt_error_codes.h (hicann/runtime @15c6c8db) names 507915 RT_SYMBOL_NOT_FOUND;
  // master, which §6 follows, has SYMBOL_NOT_FOUND at 107042 and CCU_TIMEOUT here.
  [507915, 'RT_CCU_TIMEOUT', 'A CCU task timed out.'],
  [507916, 'RT_CCU_EXCEPTION', 'A CCU task raised an exception.'],
];

/** Header block → its rows and the code prefix (code / 1000) every row must carry. */
const BLOCKS: readonly (readonly [AclErrorRange, number, readonly Row[]])[] = [
  ['caller', 100, CALLER],
  ['caller-extended', 148, CALLER_EXTENDED],
  ['resource', 200, RESOURCE],
  ['storage', 300, STORAGE],
  ['internal', 500, INTERNAL],
  ['runtime-caller', 107, RUNTIME_CALLER],
  ['runtime-resource', 207, RUNTIME_RESOURCE],
  ['runtime-internal', 507, RUNTIME_INTERNAL],
];

function buildErrors(): Map<number, AclErrorInfo> {
  const byCode = new Map<number, AclErrorInfo>();
  const names = new Set<string>();
  for (const [range, prefix, rows] of BLOCKS) {
    for (const [code, shortName, message] of rows) {
      const name = `ACL_ERROR_${shortName}`;
      if (Math.floor(code / 1000) !== prefix) throw new Error(`${name} = ${code} is outside the ${prefix}xxx block`);
      if (byCode.has(code) || names.has(name)) throw new Error(`${name} = ${code} is listed twice`);
      byCode.set(code, Object.freeze({ code, name, message, range }));
      names.add(name);
    }
  }
  return byCode;
}

/** Every aclError of acl-api.md §6 except success, keyed by code. */
export const ACL_ERRORS: ReadonlyMap<number, AclErrorInfo> = buildErrors();

/** Spellings that name a code without being its header name. */
export const ACL_ERROR_ALIASES: ReadonlyMap<string, number> = new Map([['ACL_ERROR_RT_DEVIDE_OOM', ACL_ERROR_RT_DEVICE_OOM]]);

const codeByName = new Map<string, number>([
  ...ACL_SUCCESS_NAMES.map((name): [string, number] => [name, ACL_SUCCESS]),
  ...[...ACL_ERRORS.values()].map((info): [string, number] => [info.name, info.code]),
  ...ACL_ERROR_ALIASES,
]);

/** Every name of §6 (success spellings, error names, aliases) → code. */
export const ACL_ERROR_CONSTANTS: ReadonlyMap<string, number> = codeByName;

export function errorName(code: number): string {
  if (code === ACL_SUCCESS) return 'ACL_SUCCESS';
  return ACL_ERRORS.get(code)?.name ?? `UNKNOWN_ERROR_${code}`;
}

export function errorCode(name: string): number | undefined {
  return codeByName.get(name);
}

export function errorMessage(code: number): string {
  if (code === ACL_SUCCESS) return 'The call succeeded.';
  return ACL_ERRORS.get(code)?.message ?? `Code ${code} is not an aclError known to runtime 1.17.`;
}

export function errorRange(code: number): AclErrorRange | undefined {
  return ACL_ERRORS.get(code)?.range;
}
