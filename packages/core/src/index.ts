// @pagelens/core: the public surface. Named exports only; grouped by layer.

// ACL vocabulary (acl-api.md §3–§6)
export { type ArgCheck, argsAreValid, checkArgs, inputNames } from './acl/check-args.ts';
export { type AclEnum, defineEnum, flagNames, shortName } from './acl/enum-table.ts';
export {
  ACL_CONSTANTS,
  ACL_ENUM_TYPES,
  ACL_EVENT,
  ACL_FAILURE_MODE,
  ACL_HOST_REG,
  ACL_MACRO_FAMILIES,
  ACL_RT_VMM_EXPORT_FLAG,
  ACL_STREAM,
  ALL_ENUMS,
  aclrtEventRecordedStatus,
  aclrtHostRegisterType,
  aclrtMallocAttrType,
  aclrtMemAccessFlags,
  aclrtMemAllocationType,
  aclrtMemAttr,
  aclrtMemcpyKind,
  aclrtMemGranularityOptions,
  aclrtMemHandleType,
  aclrtMemLocationType,
  aclrtMemMallocPolicy,
  aclrtStreamStatus,
  enumByCName,
  MEM_POLICY_MASK,
  MEM_TYPE_MASK,
} from './acl/enums.ts';
export {
  ACL_ERROR_API_NOT_SUPPORT,
  ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
  ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
  ACL_ERROR_INTERNAL_ERROR,
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_REPEAT_INITIALIZE,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_INVALID_HANDLE,
  ACL_ERROR_RT_MEMORY_ALLOCATION,
  ACL_ERROR_RT_NO_PERMISSION,
  ACL_ERRORS,
  ACL_SUCCESS,
  errorCode,
  errorMessage,
  errorName,
} from './acl/errors.ts';
export {
  ACL_FUNCTION_NAMES,
  ACL_FUNCTIONS,
  type AclFunctionName,
  type FunctionCategory,
  type FunctionSpec,
  functionSpec,
  isAclFunctionName,
  isIntegerValueType,
  type ListItem,
  type ParamSpec,
  type PointerTarget,
  releaseCallOf,
  type StructName,
  type ValueType,
} from './acl/functions.ts';
export { type AclCall, invokeAcl, invokeCall } from './acl/invoke.ts';
export {
  type AclArgs,
  type AclCaller,
  type AclMethods,
  type AclOut,
  type AclResult,
  type AclRuntime,
  AclRuntimeBase,
  runtimeFrom,
  type WireArgs,
} from './acl/runtime.ts';
export { type FieldType, type StructField, structField, structFields } from './acl/struct-fields.ts';
export {
  type AclStructName,
  type aclrtMallocAttribute,
  type aclrtMallocConfig,
  type aclrtMemAccessDesc,
  type aclrtMemLocation,
  type aclrtPhysicalMemProp,
  type aclrtPtrAttributes,
  C_SCALAR_SIZES,
  mallocAttrMember,
  STRUCT_LAYOUTS,
  sizeOfCType,
} from './acl/structs.ts';
export { type Normalized, normalizeArgs } from './acl/wire-args.ts';
// Analyses
export { type AllocationReport, reportAllocation } from './analysis/allocation-report.ts';
export { type DeviceReport, largestFreeRun, reportDevice } from './analysis/device-report.ts';
export { GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE, PAGE_CLASSES, pageSizeOf } from './analysis/page-size.ts';
export { type PageWalk, translationWalk, walkTableCount } from './analysis/page-walk.ts';
export { policyWhatIf, WHAT_IF_POLICIES, type WhatIfOutcome, type WhatIfRequest } from './analysis/policy-what-if.ts';
export { type CoverageReport, coverage, coverageByClass, pagesFor, ptesFor, tlbReach } from './analysis/pte.ts';
export {
  type AccessPattern,
  type BufferSegment,
  patternAccessCount,
  simulateTlb,
  type TlbGeometry,
  type TlbResult,
} from './analysis/tlb-sim.ts';
export { type AddressMap, toModelAddress } from './formats/address-map.ts';
// Imported memory files: snapshot pickles, Ascend CSVs and msMemScope's .db; stats and the Perfetto export
export {
  type MemoryRecord,
  type MemoryRecordRow,
  type MemScopeEvent,
  type OperatorMemory,
  type OperatorMemoryRow,
  readMemoryRecord,
  readMemScopeEvents,
  readOperatorMemory,
} from './formats/ascend-csv.ts';
export {
  countMatching,
  type ExpandableBound,
  expandableBound,
  explainPeak,
  type FrameGroup,
  type FramesOf,
  frameText,
  groupByTopFrame,
  type Leaks,
  leaksBetween,
  NO_FRAME,
  type PeakExplanation,
  type ReservedStep,
  reservedAt,
  reservedSteps,
  type StackMatch,
  stackContains,
  stackMatcher,
  stackMatchSeqs,
  topFrame,
} from './formats/block-analysis.ts';
export { BlockIndex, type BlockOpening, type BlockParts, blockStateAt, type ImportedBlock } from './formats/block-index.ts';
export { FormatError } from './formats/format-error.ts';
export { framesOf } from './formats/frames.ts';
export { isSqliteFile, readMemScopeDb, type SqliteDatabase, type SqliteEngine, type SqliteStatement } from './formats/memscope-db.ts';
export {
  MEMSCOPE_UNPLACED,
  type MemScopeConversion,
  type MemScopeDump,
  type MemScopeUnplaced,
  readMemScopeDump,
} from './formats/memscope-session.ts';
export {
  type CsvFile,
  type CsvKind,
  CsvLoader,
  HEADER_BYTES,
  type LoaderOptions,
  type MemoryFile,
  memoryCsvKind,
  type OpenResult,
  openMemoryFile,
  SnapshotLoader,
} from './formats/open-file.ts';
export {
  type ChromeTrace,
  chromeTraceJson,
  PERFETTO_IN_BROWSER_BYTES,
  perfettoNeedsNative,
  snapshotTraceJson,
  type TraceJson,
  toChromeTrace,
} from './formats/perfetto.ts';
export { memoryRecordToChromeTrace } from './formats/perfetto-csv.ts';
export { fileTraceJson } from './formats/perfetto-file.ts';
export { deviceFiguresOf, heldBytes, modelToChromeTrace } from './formats/perfetto-model.ts';
export { type PickleLimits, PickleReader, readPickle } from './formats/pickle-reader.ts';
export type { PickleValue } from './formats/pickle-values.ts';
export { type AllocatorModel, segmentPages } from './formats/segment-pages.ts';
export { type ImportedSession, type ImportOptions, importSnapshot, type PinnedHostFacts } from './formats/snapshot-session.ts';
export { type SnapshotStats, snapshotStats } from './formats/snapshot-stats.ts';
export type { MemorySnapshot, Segment as SnapshotSegment, SettingValue, TraceAction, TraceEntry } from './formats/snapshot-types.ts';
export { TRACE_ACTIONS } from './formats/snapshot-types.ts';
export { BAD_STACK, NO_STACK, type StackTable, stackFrames } from './formats/stack-table.ts';
export {
  type PackedEvents,
  packEvents,
  RecordedEvents,
  TraceCall,
  type TraceCallParts,
  TraceCalls,
  unpackEvents,
} from './formats/trace-calls.ts';
export type { DeviceTraceSummary, TraceSummary } from './formats/trace-summary.ts';
export type { Program } from './interp/ast.ts';
export { DEFAULT_PROGRAM_NAME } from './interp/c-library.ts';
// The C interpreter (playground) and its scenarios
export { type CompileOptions, type CompileResult, compile, type EntryChoice, resolveEntry } from './interp/compile.ts';
export type { Diagnostic, DiagnosticKind, Span } from './interp/diagnostics.ts';
export type { ExecError, ExecErrorKind } from './interp/exec-errors.ts';
export { type ExecState, Execution, type ExecutionOptions, type StepOutcome } from './interp/execution.ts';
export { type InputDecl, inputType, inputValue } from './interp/inputs.ts';
export { type CallRecord, DEFAULT_STEP_LIMIT, MAX_CALL_DEPTH, YIELD_EVERY } from './interp/machine.ts';
export { type CallLogEntry, type LineMark, MAX_CALLS_PER_LINE } from './interp/marks.ts';
export { UNINITIALIZED } from './interp/values.ts';
export type { VariableView } from './interp/variables.ts';
// Guided lessons built on the scenarios
export {
  firstOpenStep,
  type Goal,
  goalsMet,
  LESSONS,
  type Lesson,
  type LessonStep,
  type LessonWorld,
  lessonById,
  lessonTableProblems,
} from './lessons/index.ts';
// The memory model: events, state, reducer
export type {
  CallEvent,
  CodedText,
  ContextCreateEvent,
  CopyMode,
  CopyPath,
  EventBody,
  EventCreateEvent,
  EventKind,
  EventRecordEvent,
  EventWaitEvent,
  Fallback,
  HostMemoryKind,
  MemoryEvent,
  PageClass,
  PoolFigures,
  PoolSampleEvent,
  Provenance,
  Reason,
} from './model/events.ts';
export { FRAMES_PER_GIANT, FrameKind, type FrameTable, pageOwner } from './model/frames.ts';
export {
  BASE_POLICIES,
  type BasePolicy,
  type BasePolicyKey,
  type BasePolicyName,
  basePolicy,
  HUGE_FIRST_THRESHOLD,
  isMallocFn,
  MALLOC_FNS,
  type MallocFn,
  type PolicyPages,
  paddedSize,
  pageBytes,
  planMalloc,
} from './model/malloc-policy.ts';
export { freeGiantBlocks, freeNormalPages } from './model/placement.ts';
export { type DevicePools, devicePools, usedBytes } from './model/pools.ts';
export { describeReason, explainReasons, fillTemplate, REASON_TEMPLATES_EN, type ReasonCode, sortRules } from './model/reasons.ts';
export { assertNever, ReduceError, reduce } from './model/reduce.ts';
export { canonicalJson, decodeSnapshot, encodeSnapshot, fingerprint, type Snapshot } from './model/snapshot.ts';
export {
  type AclContext,
  type AclEvent,
  type CopyRecord,
  cloneHostState,
  createHostState,
  type DeviceAllocation,
  type DeviceState,
  type HostBuffer,
  type HostState,
  type Mapping,
  type PhysicalHandle,
  type PhysicalMemory,
  type ProcessState,
  type Reservation,
  type Stream,
} from './model/state.ts';
export { planTeardown } from './model/teardown-plan.ts';
// Device profiles
export {
  ASCEND_310P3,
  ASCEND_910_93,
  ASCEND_910B2,
  ASCEND_910B4,
  BUILTIN_PROFILE_NAMES,
  BUILTIN_PROFILES,
  DEFAULT_PROFILE,
  findProfile,
} from './profiles/builtin.ts';
export { loadProfileJson, type ProfileLoad } from './profiles/load.ts';
export { DeviceProfile, FRAME_BYTES, frameCount, kernelAtMost, SIMULATED_DEVICES } from './profiles/profile.ts';
// The wire protocol
export type { CallAnswer, CallReply } from './protocol/call-reply.ts';
export { ErrorCode, ErrorMessage } from './protocol/errors.ts';
export { MemoryEventSchema, SnapshotSchema } from './protocol/event-schemas.ts';
export {
  DriverFollowState,
  FOLLOW_LIMITS,
  FollowDoc,
  FollowLesson,
  FollowMark,
  FollowRun,
  FollowState,
  PublishFollowState,
} from './protocol/follow-messages.ts';
export { isObject } from './protocol/guards.ts';
export { DeviceInfo, Hello, HostInfo, HostMessage, Role, Welcome } from './protocol/handshake.ts';
export { HistoryBaseMessage, HistoryMessage, HistoryPageMessage } from './protocol/history-messages.ts';
export { AgentMessage, ClientMessage, type PackedHistoryBaseMessage, type PackedSnapshotMessage } from './protocol/messages.ts';
export { jsonNesting, MAX_AGENT_NESTING, MAX_CLIENT_NESTING, nestingProblem } from './protocol/nesting.ts';
export { type PackedSnapshot, packSnapshot } from './protocol/packed-snapshot.ts';
export {
  describeIssue,
  type ParsedAgentMessage,
  type ParsedClientMessage,
  type ParseResult,
  parseAgentMessage,
  parseClientMessage,
} from './protocol/parse.ts';
export { clip, QUOTE_LIMIT, quote } from './protocol/quote.ts';
export {
  Call,
  EventsMessage,
  Notice,
  Ping,
  Pong,
  Presence,
  Reset,
  Result,
  Resync,
  type RunInfo,
  RunsMessage,
  SnapshotMessage,
} from './protocol/session-messages.ts';
export { unpackSnapshot } from './protocol/unpack-snapshot.ts';
export { PROTOCOL_VERSION } from './protocol/version.ts';
export {
  type CurrentHost,
  declaredDevices,
  type HostDifference,
  hostDifferences,
  type ScenarioHost,
  scenarioHostProblem,
} from './scenarios/host.ts';
export { SCENARIOS, scenarioById } from './scenarios/index.ts';
export { DEVICE_SETUP, type LocalizedText, type Scenario, STREAM_SETUP } from './scenarios/scenario.ts';
// The simulator
export { DEVICE_VA_BASE, DEVICE_VA_WINDOW, deviceWindowBase, PINNED_HOST_BASE } from './sim/layout.ts';
export { Rng } from './sim/rng.ts';
export { type EventListener, type FailureInjection, SimHost, type SimHostOptions } from './sim/sim-host.ts';
export { SimRuntime } from './sim/sim-runtime.ts';
export { placeholdersOf } from './texts/placeholders.ts';
export { describeText, noteOf, TEXT_PARTS, TEXT_TEMPLATES_EN, type Text, type TextCode, text, withText } from './texts/table.ts';
// Units
export {
  alignDown,
  alignUp,
  formatBytes,
  formatInteger,
  GB,
  GiB,
  isAligned,
  KiB,
  MB,
  MiB,
  parseSize,
  SIZE_SYNTAX_HELP,
  type SizeParse,
  TiB,
  type UnitSystem,
} from './units/bytes.ts';
export { type Hex, isHex, NULL_PTR, parseHex, toHex } from './units/hex.ts';
