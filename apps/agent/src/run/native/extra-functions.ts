/**
 * Public acl_rt.h / acl_base.h functions that the catalogue (packages/core/src/acl/functions.ts)
 * does not model, which programs commonly link (corpus/public/not-in-catalogue.md counts them).
 * The interposer exports each so a program links and starts; a call answers
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) and is reported to the agent once per function as
 * *not modeled*. Signatures are facts from the cited reference sections; the C text is ours.
 */

export interface ExtraParam {
  readonly name: string;
  /** The C type as the header writes it. */
  readonly ctype: string;
}

export interface ExtraFunction {
  readonly name: string;
  readonly params: readonly ExtraParam[];
  /** Where the signature comes from. */
  readonly source: string;
}

const p = (ctype: string, name: string): ExtraParam => ({ ctype, name });
const ACL_API = 'reference/acl-api.md §5';
const EVENTS = 'docs/reference/runtime-api.md §5';
const HEADER = 'acl_rt.h (public header, signature only)';

export const EXTRA_FUNCTIONS: readonly ExtraFunction[] = [
  { name: 'aclFinalizeReference', params: [p('uint64_t*', 'refCount')], source: ACL_API },
  { name: 'aclrtGetLastError', params: [p('aclrtLastErrLevel', 'level')], source: ACL_API },
  { name: 'aclrtPeekAtLastError', params: [p('aclrtLastErrLevel', 'level')], source: ACL_API },
  {
    name: 'aclrtGetVersion',
    params: [p('int32_t*', 'majorVersion'), p('int32_t*', 'minorVersion'), p('int32_t*', 'patchVersion')],
    source: ACL_API,
  },
  { name: 'aclrtGetDeviceInfo', params: [p('uint32_t', 'deviceId'), p('aclrtDevAttr', 'attr'), p('int64_t*', 'value')], source: ACL_API },
  { name: 'aclrtDeviceGetBareTgid', params: [p('int32_t*', 'pid')], source: ACL_API },
  { name: 'aclrtFreeWithDevSync', params: [p('void*', 'devPtr')], source: ACL_API },
  { name: 'aclrtFreeHostWithDevSync', params: [p('void*', 'hostPtr')], source: ACL_API },
  {
    name: 'aclrtMemMapNoAccess',
    params: [p('void*', 'virPtr'), p('size_t', 'size'), p('size_t', 'offset'), p('aclrtDrvMemHandle', 'handle'), p('uint64_t', 'flags')],
    source: ACL_API,
  },
  {
    name: 'aclrtMemExportToShareableHandleV2',
    params: [
      p('aclrtDrvMemHandle', 'handle'),
      p('uint64_t', 'flags'),
      p('aclrtMemSharedHandleType', 'shareType'),
      p('void*', 'shareableHandle'),
    ],
    source: ACL_API,
  },
  {
    name: 'aclrtMemImportFromShareableHandleV2',
    params: [
      p('void*', 'shareableHandle'),
      p('aclrtMemSharedHandleType', 'shareType'),
      p('uint64_t', 'flags'),
      p('aclrtDrvMemHandle*', 'handle'),
    ],
    source: ACL_API,
  },
  {
    name: 'aclrtMemSetPidToShareableHandleV2',
    params: [p('void*', 'shareableHandle'), p('aclrtMemSharedHandleType', 'shareType'), p('int32_t*', 'pid'), p('size_t', 'pidNum')],
    source: ACL_API,
  },
  { name: 'aclrtQueryEvent', params: [p('aclrtEvent', 'event'), p('aclrtEventStatus*', 'status')], source: EVENTS },
  { name: 'aclrtQueryEventWaitStatus', params: [p('aclrtEvent', 'event'), p('aclrtEventWaitStatus*', 'status')], source: EVENTS },
  {
    name: 'aclrtStreamWaitEventWithTimeout',
    params: [p('aclrtStream', 'stream'), p('aclrtEvent', 'event'), p('int32_t', 'timeout')],
    source: EVENTS,
  },
  { name: 'aclrtGetEventId', params: [p('aclrtEvent', 'event'), p('uint32_t*', 'eventId')], source: EVENTS },
  { name: 'aclrtGetEventAvailNum', params: [p('uint32_t*', 'eventCount')], source: EVENTS },
  { name: 'aclrtSetOpWaitTimeout', params: [p('uint32_t', 'timeout')], source: EVENTS },
  { name: 'aclrtGetLogicDevIdByUserDevId', params: [p('const int32_t', 'userDevid'), p('int32_t*', 'logicDevId')], source: HEADER },
  { name: 'aclrtGetPhyDevIdByLogicDevId', params: [p('const int32_t', 'logicDevId'), p('int32_t*', 'phyDevId')], source: HEADER },
  { name: 'aclrtSubscribeReport', params: [p('uint64_t', 'threadId'), p('aclrtStream', 'stream')], source: HEADER },
  { name: 'aclrtUnSubscribeReport', params: [p('uint64_t', 'threadId'), p('aclrtStream', 'stream')], source: HEADER },
  { name: 'aclrtProcessReport', params: [p('int32_t', 'timeout')], source: HEADER },
  {
    name: 'aclrtLaunchCallback',
    params: [p('aclrtCallback', 'fn'), p('void*', 'userData'), p('aclrtCallbackBlockType', 'blockType'), p('aclrtStream', 'stream')],
    source: HEADER,
  },
];

/** Enums the extra functions need that core's tables do not define (values from the cited sections). */
export const EXTRA_ENUMS: readonly {
  readonly cName: string;
  readonly members: readonly (readonly [string, number])[];
  readonly source: string;
}[] = [
  {
    cName: 'aclrtEventStatus',
    members: [
      ['ACL_EVENT_STATUS_COMPLETE', 0],
      ['ACL_EVENT_STATUS_NOT_READY', 1],
      ['ACL_EVENT_STATUS_RESERVED', 2],
    ],
    source: EVENTS,
  },
  {
    cName: 'aclrtEventWaitStatus',
    members: [
      ['ACL_EVENT_WAIT_STATUS_COMPLETE', 0],
      ['ACL_EVENT_WAIT_STATUS_NOT_READY', 1],
      ['ACL_EVENT_WAIT_STATUS_RESERVED', 0xffff],
    ],
    source: EVENTS,
  },
  {
    cName: 'aclrtCallbackBlockType',
    members: [
      ['ACL_CALLBACK_NO_BLOCK', 0],
      ['ACL_CALLBACK_BLOCK', 1],
    ],
    source: HEADER,
  },
];
