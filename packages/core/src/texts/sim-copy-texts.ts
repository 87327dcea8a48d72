/**
 * Why a simulated copy, memset, batch or value task failed, in English (CP). The rule ID a text
 * cites is part of it; `{{problem, text}}` wraps the text of an inner check.
 */
export const SIM_COPY_TEXTS_EN = {
  'size-zero-rule': 'size must be greater than 0 ({{rule}})',
  'side-host': 'host',
  'side-device': 'device',
  // Where a pointer points (CP-2)
  'region-past-allocation': '{{role}} {{ptr}} + {{bytes}} B runs past the end of its {{size}}-byte device allocation',
  'region-import-freed': '{{role}} {{ptr}} is IPC-imported memory its exporter has freed (IP-4)',
  'region-past-import': '{{role}} {{ptr}} + {{bytes}} B runs past the end of its {{size}}-byte IPC import',
  'region-past-mapping': '{{role}} {{ptr}} + {{bytes}} B runs past the end of its {{size}}-byte mapping',
  'region-past-host': '{{role}} {{ptr}} + {{bytes}} B runs past the end of its {{size}}-byte host buffer',
  'region-registered-device':
    '{{role}} {{ptr}} is the device address of registered host memory: it is for kernels only, not for memcpy (HM-7)',
  'region-unknown': '{{role}} {{ptr}} is not inside any live device allocation, mapping or host buffer of this process',
  // Copies (CP-1 … CP-3, CP-9, CP-10)
  'copy-unknown-device': 'unknown device',
  'copy-unreachable': 'unreachable',
  'copy-needs-peer':
    'copying between device {{src}} and device {{dst}} needs aclrtDeviceEnablePeerAccess from the current device {{current}} to {{peer}} first',
  'copy-kind-unknown': 'kind {{kind}} is not accepted here; use ACL_MEMCPY_HOST_TO_HOST … ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE (0–5) (CP-1)',
  'copy-kind-sides':
    '{{kind}} copies {{from, text}} → {{to, text}}, but src is {{srcSide, text}} memory and dst is {{dstSide, text}} memory (CP-2)',
  'copy-kind-rejected': 'kind {{kind}} is rejected by {{fn}}; use 0–5 (CP-1)',
  'copy-count-over': 'count {{n}} is larger than destMax {{destMax}} (CP-1)',
  'memset-count-over': 'count {{n}} is larger than maxCount {{maxCount}}',
  'memset-malloc': 'devPtr {{devPtr}} is malloc memory; aclrtMemset takes device memory or host memory from ACL',
  'copy2d-kind': '{{fn}} takes {{names}}, not {{kind}} (CP-9)',
  'copy2d-width': 'width {{width}} is larger than {{pitchName}} {{pitch}} (CP-9)',
  // Batches (CP-11)
  'batch-zero': '{{name}} is 0 (CP-11)',
  'batch-array-short': '{{name}} has {{entries}} entries, fewer than numBatches {{numBatches}} (CP-11)',
  'batch-size-over': 'sizes[{{index}}] {{size}} is larger than destMaxs[{{index}}] {{destMax}} (CP-11)',
  'batch-attr-rsv': 'attrs[{{index}}].rsv must be all zero (CP-11)',
  'batch-attrs-short': 'attrs and attrsIndexes need numAttrs {{numAttrs}} entries; they have {{attrs}} and {{indexes}} (CP-11)',
  'batch-attrs-over': 'numAttrs {{numAttrs}} is larger than numBatches {{numBatches}} (CP-11)',
  'batch-first-run': 'attrsIndexes[0] is {{first}}; the first run starts at copy 0 (CP-11)',
  'batch-run-order': 'attrsIndexes[{{index}}] {{here}} is not above attrsIndexes[{{previous}}] {{before}} (CP-11)',
  'batch-run-end': 'attrsIndexes[{{index}}] {{here}} is not below numBatches {{numBatches}} (CP-11)',
  'batch-loc-device': '{{role}}Loc says {{said}}, but {{role}} is device {{device}} memory',
  'batch-loc-host': '{{role}}Loc says {{said}}, but {{role}} is host memory',
  'batch-no-run': 'no attribute run covers it',
  'batch-same-side-host': 'both sides are host memory; a batch copies host → device or device → host only',
  'batch-same-side-device': 'both sides are device memory; a batch copies host → device or device → host only',
  'batch-copy': 'copy {{copy}}: {{problem, text}} (CP-11)',
  // Value tasks (CP-12)
  'value-align': 'devAddr {{devAddr}} is not 8-byte aligned (CP-12)',
  'value-region': '{{problem, text}} (CP-12)',
  'value-host': 'devAddr {{devAddr}} is host memory; {{fn}} writes and reads device memory (CP-12)',
  'value-wait-flag': 'flag {{flag}} is not an ACL_STREAM_WAIT_VALUE_* condition (GEQ 0, EQ 1, AND 2, NOR 3) (CP-12)',
} as const;
