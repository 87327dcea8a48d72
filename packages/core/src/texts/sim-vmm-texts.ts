/**
 * Why a simulated VMM, sharing or IPC call failed, in English (VM, IP, DM-8). The rule ID a text
 * cites is part of it.
 */
export const SIM_VMM_TEXTS_EN = {
  // Physical memory (VM-2 … VM-4, VM-10)
  'vmm-unsupported': '{{profile}} has no virtual memory management (VM-10)',
  'prop-handle-type': 'prop.handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not {{value}} (VM-3)',
  'prop-allocation-type': 'prop.allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED (0), not {{value}} (VM-3)',
  'prop-host-location': 'host-located physical memory is accepted by the runtime but not modeled by the PageLens simulator',
  'prop-location-type': 'prop.location.type must be ACL_MEM_LOCATION_TYPE_DEVICE (1), not {{value}} (VM-3)',
  'prop-location-id': 'prop.location.id {{id}} is not a device of this host (VM-3)',
  'prop-mem-attr':
    'prop.memAttr {{name}} is not accepted for device memory; use ACL_HBM_MEM_HUGE, ACL_HBM_MEM_NORMAL, ACL_HBM_MEM_HUGE1G or ACL_MEM_* (VM-3)',
  'granularity-option': 'option must be ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) or _RECOMMENDED (1), not {{option}}',
  'vmm-size-granularity':
    'size {{size}} must be a non-zero multiple of the granularity {{granularity}} (VM-2); round it up with aclrtMemGetAllocationGranularity',
  'vmm-no-room-normal': 'device {{device}} has no room for {{pages}} normal pages',
  'vmm-no-room-huge': 'device {{device}} has no room for {{pages}} huge pages',
  'vmm-no-room-giant': 'device {{device}} has no room for {{pages}} giant pages',
  'handle-not-live': 'handle {{handle}} is not a live physical memory handle of this process',
  'handle-no-memory': 'handle {{handle}} has no memory',
  // Reservations and mappings (VM-5 … VM-8, VM-12)
  'reserve-flags': 'flags must be 0 (1, "huge", is still accepted), not {{flags}} (VM-5)',
  'expect-ptr-window': 'expectPtr {{expectPtr}} must lie in the 16–24 TiB window (VM-5)',
  'expect-ptr-align': 'expectPtr {{expectPtr}} must be aligned to {{align}} (VM-5)',
  'expect-ptr-taken': 'the range at expectPtr {{expectPtr}} is not free',
  'reserve-window-full': "no free {{bytes}}-byte range left in device {{device}}'s address window",
  'reservation-not-live': 'virPtr {{virPtr}} is not the start of a reservation of this process',
  'reservation-mapped': 'the reservation is still mapped at {{addr}}: call aclrtUnmapMem first (VM-8)',
  'map-size': "size {{size}} must equal the handle's size {{handleSize}} (VM-6)",
  'map-outside': '[{{virPtr}}, +{{size}}) does not lie inside one reservation of this process (VM-6)',
  'map-overlap': '[{{virPtr}}, +{{size}}) overlaps the mapping at {{addr}} (VM-6)',
  'map-other-device': 'the reservation already maps memory of device {{mapped}}; it cannot also map device {{device}} (VM-6)',
  'mapping-not-live': 'virPtr {{virPtr}} is not the start of a mapping of this process',
  'mapping-not-live-rule': 'virPtr {{virPtr}} is not the start of a mapping of this process (VM-12)',
  'mapping-not-inside': 'virPtr {{virPtr}} is not inside a mapping of this process',
  'mapping-handle-freed': 'the handle mapped at {{virPtr}} was already freed; it waits for the unmap (VM-8, VM-12)',
  'access-range': 'virPtr {{virPtr}} and size {{size}} must be exactly a range given to aclrtMapMem (VM-7)',
  'access-count': 'count {{n}} must be between 1 and the {{given}} descriptors given',
  'access-flags': 'desc[{{index}}].flags must be ACL_RT_MEM_ACCESS_FLAGS_READWRITE (0x3), the only documented value (VM-7)',
  'access-location': 'desc[{{index}}].location must be a device of this host (type ACL_MEM_LOCATION_TYPE_DEVICE)',
  'access-rsv': 'desc[{{index}}].rsv must be all zero',
  // Shareable handles (VM-9, VM-11)
  'share-handle-type': 'handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not {{value}} (VM-9)',
  'share-export-flags': 'flags must be ACL_RT_VMM_EXPORT_FLAG_DEFAULT (0) or _DISABLE_PID_VALIDATION (1), not {{flags}}',
  'share-imported': 'handle {{handle}} was imported; only the process that allocated the memory exports it (VM-9)',
  'share-not-exported': '{{shareable}} is not a shareable handle this process exported (VM-9)',
  'share-not-live':
    '{{shareable}} is not a live shareable handle on this host: it was never exported, or its exporter has freed the memory (VM-11)',
  'share-import-own': 'the process that exported a handle cannot import it; import it in another process (VM-9)',
  'share-not-allowed': "pid {{pid}} is not on the handle's allow-list: the exporter must call aclrtMemSetPidToShareableHandle (VM-9)",
  'share-memory-gone': 'the memory behind {{shareable}} is gone',
  'share-needs-peer':
    'the memory is on device {{memoryDevice}}; importing it on device {{device}} needs aclrtDeviceEnablePeerAccess first (VM-9)',
  // Peer access (DM-8)
  'peer-same-device': 'deviceId and peerDeviceId must differ',
  'peer-self': 'a device cannot enable peer access to itself',
  'peer-no-p2p': 'these devices have no P2P (DM-8)',
  'peer-not-enabled':
    'device {{device}} has no peer access to device {{peer}} to disable: aclrtDeviceEnablePeerAccess was not called (DM-8)',
  // IPC memory (IP)
  'ipc-export-args': 'size and len must be above 0 and flags 0 or 1 (size {{size}}, len {{len}}, flags {{flags}}) (IP-1)',
  'ipc-key-len': 'len {{len}} is too short: the key takes {{needed}} bytes with its NUL (IP-1)',
  'ipc-export-not-live': 'devPtr {{devPtr}} is not the start of a live device allocation of this process (IP-1)',
  'ipc-export-size': 'size {{size}} is larger than the {{allocation}}-byte allocation (IP-1)',
  'ipc-key-not-exported': '"{{key}}" is not a key this process exported (IP-2)',
  'ipc-import-flags': 'flags must be 0 or 1, not {{flags}} (IP-3)',
  'ipc-key-not-live': '"{{key}}" is not a live IPC key on this host (IP-3)',
  'ipc-import-own': 'the exporting process cannot import its own key; import it in another process (IP-3)',
  'ipc-not-allowed': "pid {{pid}} is not on the key's allow-list: the exporter must call aclrtIpcMemSetImportPid (IP-2)",
  'ipc-export-gone': 'the exported memory is gone: its exporter freed it (IP-4)',
  'ipc-import-va-full': 'no device address range of {{size}} bytes is free in this process',
  'ipc-key-unknown': '"{{key}}" is neither imported nor exported by this process (IP-4)',
} as const;
