/**
 * Why a simulated ACL call failed, in English: device memory (the aclrtMalloc family and its
 * queries, DM) and host memory (HM). The rule ID a text cites is part of it.
 */
export const SIM_MEMORY_TEXTS_EN = {
  // The aclrtMalloc family (DM)
  'malloc-size-zero': 'size must be greater than 0 (DM-2)',
  'malloc-flags-need-withcfg': 'policy {{policy}} combines bits that only aclrtMallocWithCfg accepts (DM-9)',
  'malloc-cached-policy': 'aclrtMallocCached does not accept {{policy}}',
  'no-giant-pages': '{{profile}} has no 1 GiB pages (DM-7)',
  'no-p2p-memory': '{{profile}} has no P2P memory (DM-8)',
  'cfg-num-attrs': 'cfg.numAttrs is {{numAttrs}} but only {{given}} attributes are given',
  'cfg-device-id': 'cfg.attrs[{{index}}]: DEVICE_ID {{deviceId}} must equal the current device {{device}}',
  'cfg-va-flag': 'cfg.attrs[{{index}}]: VA_FLAG must be 0 or 1',
  'cfg-attr-unknown': 'cfg.attrs[{{index}}].attr {{attr}} is not an aclrtMallocAttrType',
  'pages-exhausted-normal': 'not enough free normal pages on device {{device}}: {{pages, int}} needed, {{available, int}} free',
  'pages-exhausted-huge': 'not enough free huge pages on device {{device}}: {{pages, int}} needed, {{available, int}} free',
  'pages-exhausted-giant': 'not enough free giant pages on device {{device}}: {{pages, int}} needed, {{available, int}} free',
  'va-window-full': "device {{device}}'s address window has no free {{bytes}}-byte range",
  'free-null': 'devPtr is NULL: aclrtFree(NULL) is an error, not a no-op (DM-13)',
  'free-not-live':
    'devPtr {{devPtr}} is not the start of a live device allocation of this process (freed twice, or never allocated) (DM-13)',
  // Queries (DM-15 … DM-18)
  'mem-attr-unknown': 'attr {{attr}} is not an aclrtMemAttr (0–17)',
  'no-giant-pool': '{{profile}} has no 1 GiB page pool (DM-15)',
  'pointer-registered-device': '{{ptr}} is the device address of registered host memory: not valid for aclrtPointerGetAttributes (HM-7)',
  'range-not-found': 'ptr {{ptr}} is not inside device memory, a mapping or pinned host memory of this process (DM-16)',
  'mem-type-size-zero': 'size is 0: give at least one address (DM-17)',
  'mem-type-bits': 'memType {{memType}} has bits the runtime does not take (0x2, 0x8, 0x20) (DM-17)',
  'mem-type-bits-rsvd':
    'memType {{memType}} has bits the runtime does not take (0x2, 0x8, 0x20); ACL_RT_MEM_TYPE_RSVD (0x10) from acl_rt.h is not among them: the runtime reads reserved VA as 0x20 (DM-17)',
  'mem-type-size-over': 'size {{size}} is more than the {{given}} addresses given (DM-17)',
  'usage-input-zero': 'inputNum is 0 (DM-18)',
  'usage-device-missing': 'device {{device}} does not exist; this host has {{devices}} (DM-18)',
  'usage-not-modeled':
    "the simulator models a driver without per-component usage: its components are the driver's and not documented (DM-18)",
  // Host memory (HM)
  'host-unregistered-first': '{{ptr}} was still registered; PageLens unregistered it (call aclrtHostUnregister before freeing, HM-5)',
  'host-free-unknown': 'free({{ptr}}): not a pointer malloc returned (undefined behaviour in C)',
  'host-free-pinned': 'free({{ptr}}): not a pointer malloc returned (undefined behaviour in C); pinned memory is freed with aclrtFreeHost',
  'host-no-va-flag': '{{profile}} does not support VA_FLAG (HM-6: A2/A3 only)',
  'host-pinned-full': 'the pinned host window has no room left',
  'host-free-host-unknown': 'hostPtr {{hostPtr}} is not the start of memory from aclrtMallocHost',
  'host-free-host-malloc': 'hostPtr {{hostPtr}} is not the start of memory from aclrtMallocHost (malloc memory is freed with free)',
  'host-register-align': 'ptr {{ptr}} must be aligned to the {{page}}-byte host page (HM-5)',
  'host-register-outside': '[{{ptr}}, +{{size}}) is not inside one live host buffer of this process',
  'host-already-registered': '{{ptr}} is already registered (HM-5)',
  'host-register-old-kernel':
    'the host kernel {{kernel}} is 5.10 or older: malloc memory cannot be registered there; use aclrtMallocHost (HM-5)',
  'host-register-va-full': 'no device address range is left for registered host memory',
  'host-register-type-reserved': 'type {{type}} is reserved and not supported',
  'host-register-type-unknown': 'type {{type}} is not an aclrtHostRegisterType; use ACL_HOST_REGISTER_MAPPED (0)',
  'host-register-flags-reserved': 'ACL_HOST_REG_IOMEMORY and ACL_HOST_REG_READONLY are reserved and not supported',
  'host-register-flag-bits': 'flag {{flag}} must be ACL_HOST_REG_PINNED, ACL_HOST_REG_MAPPED or both',
  'host-register-pinned': '{{ptr}} is already pinned memory: ACL_HOST_REG_PINNED is for pageable memory only (HM-5)',
  'host-not-registered': '{{ptr}} is not registered host memory (HM-5)',
  'host-not-mapped': '{{ptr}} is not host memory registered with MAPPED (HM-5)',
} as const;
