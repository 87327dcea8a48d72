/**
 * Why a simulated ACL call failed, in English: the texts of `fail` and `invalid` (sim/context.ts)
 * for devices, contexts, streams, events and waits. The rule ID a text cites is part of it.
 * The web has the same codes in Chinese.
 */
export const SIM_TEXTS_EN = {
  injected: '{{name}} injected on purpose (no state changed)',
  // Arguments in general
  'null-arg': '{{name}} is NULL',
  'null-arg-rule': '{{name}} is NULL ({{rule}})',
  'size-zero-arg': 'size must be greater than 0',
  'must-be-zero': '{{name}} must be 0, not {{value}}',
  'must-be-zero-rule': '{{name}} must be 0, not {{value}} ({{rule}})',
  'reserved-zero-rule': '{{name}} is reserved and must be 0, not {{value}} ({{rule}})',
  'pid-count': '{{name}} {{value}} must be between 1 and the {{given}} pids given',
  'pid-count-rule': '{{name}} {{value}} must be between 1 and the {{given}} pids given ({{rule}})',
  // Devices and lifetime (LT)
  'no-current-device': 'no current device: call aclrtSetDevice first (LT-2)',
  'init-repeated': 'aclInit was already called in this process (LT-1; harmless)',
  'finalize-repeated': 'aclFinalize was already called, with no aclInit since (LT-5)',
  'device-missing': 'device {{device}} does not exist; this host has devices 0 to {{last}}',
  'device-absent': 'device {{device}} does not exist',
  'device-not-set': 'device {{device}} is not set in this process: nothing to reset (LT-2)',
  // Contexts (CX)
  'context-not-created': 'the context could not be created',
  'context-not-live': 'context {{handle}} is not a live context of this process ({{rule}})',
  'context-default':
    "context {{handle}} is device {{device}}'s default context: aclrtResetDevice releases it, aclrtDestroyContext cannot (CX-2)",
  'context-null-set': 'context is NULL: name a context from aclrtCreateContext or aclrtGetCurrentContext',
  'no-current-context': 'no current context: call aclrtSetDevice or aclrtCreateContext first ({{rule}})',
  'no-current-context-set': 'no current context: call aclrtSetDevice first ({{rule}})',
  // Streams (CP, CX-3)
  'stream-foreign': '{{fn}}: stream {{stream}} belongs to context {{owner}}, not to the current context {{current}} (CX-3)',
  'stream-not-live': 'stream {{stream}} is not a live stream of this process',
  'stream-null-destroy': 'stream is NULL: the default stream cannot be destroyed',
  'stream-stop-sticky': 'a stream set to ACL_STOP_ON_FAILURE cannot go back to ACL_CONTINUE_ON_FAILURE (CP-7)',
  'timeout-bad': 'timeout must be -1 (wait for ever) or a number of milliseconds above 0, not {{timeout}} (CP-5)',
  'wait-timeout-stream': "the stream's work runs {{ms}} ms more, past the {{timeout}} ms timeout (CP-5)",
  'wait-timeout-device': "the device's work runs {{ms}} ms more, past the {{timeout}} ms timeout (CP-5)",
  'wait-timeout-event': "the event's work runs {{ms}} ms more, past the {{timeout}} ms timeout (CP-5)",
  'wait-timeout-stream-goes-on': "the stream's work runs {{ms}} ms more, past the {{timeout}} ms timeout; it goes on (CP-5)",
  'wait-timeout-device-goes-on': "the device's work runs {{ms}} ms more, past the {{timeout}} ms timeout; it goes on (CP-5)",
  'wait-timeout-event-goes-on': "the event's work runs {{ms}} ms more, past the {{timeout}} ms timeout; it goes on (CP-5)",
  // Events (EV)
  'event-flag-ex-bits': 'flag {{flag}} has bits aclrtCreateEventExWithFlag does not take',
  'event-flag-ipc-alone': 'ACL_EVENT_IPC must be used alone',
  'event-flag-bits': 'flag {{flag}} must have at least one ACL_EVENT_* bit and no other',
  'event-flag-alone': 'ACL_EVENT_DEVICE_USE_ONLY and ACL_EVENT_EXTERNAL must be used alone',
  'event-flag-problem': '{{problem, text}} (EV-1)',
  'event-not-live': '{{name}} {{event}} is not a live event of this process',
  'event-not-waitable': 'event flags {{flags}} have no ACL_EVENT_SYNC: a stream cannot wait on this event (EV-3)',
  'event-external-query': 'an ACL_EVENT_EXTERNAL event cannot be queried',
  'event-ex-reset': 'events from aclrtCreateEventExWithFlag cannot be reset (EV-5)',
  'event-never-recorded': '{{name}} was never recorded (EV-6)',
  'event-no-timeline': '{{name}} was created without ACL_EVENT_TIME_LINE, so it has no timestamp (EV-6)',
  'event-not-done': "{{name}}'s work is not done yet: synchronize first (EV-6)",
} as const;
