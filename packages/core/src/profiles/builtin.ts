import { GiB } from '../units/bytes.ts';
import type { DeviceProfile } from './profile.ts';

const GB_PER_S = 1e9;

/** The same TLB assumption everywhere until someone measures one (PT-3). Editable in the UI. */
const ASSUMED_TLB = {
  normal: { entries: 1024, ways: 8 },
  huge: { entries: 1024, ways: 8 },
  giant: { entries: 64, ways: 4 },
} as const;

const COMMON_SOURCES = {
  normalPageSize: 'RULES.md DM-11: normal page = host kernel page size, 4 KiB by default (driver KA_MM_PAGE_SIZE, anchors H9)',
  padding: 'RULES.md DM-3; acl-api.md §7: padding_size 32 in the 910B/910_93/310P ini files',
  tlb: 'assumed: Ascend TLB geometry is not published (RULES.md PT-3, anchors H8)',
  'bandwidth.pinnedEfficiency': 'RULES.md CP-3: pinned ≈ 0.8–0.9 × link peak (anchors C1–C3)',
  'bandwidth.pageableMin': 'RULES.md CP-3: pageable ≈ 0.3–1.0 × pinned (anchors C2, C3, C11)',
  'bandwidth.stagingChunkBytes': 'modeled: the staging buffer size is not published',
  'bandwidth.copyLatencyNs': 'modeled',
  'host.kernelVersion': 'modeled host; HM-5 needs a kernel newer than 5.10 to register malloc memory',
} as const;

const COMMON_ASSUMED = ['tlb', 'bandwidth.stagingChunkBytes', 'bandwidth.copyLatencyNs', 'host.kernelVersion'];

const COMMON = {
  normalPageSize: 4096,
  padding: 32,
  host: { kernelVersion: '5.15.0', pageSize: 4096 },
  tlb: ASSUMED_TLB,
} as const;

const COPY_MODEL = {
  pinnedEfficiency: 0.85,
  pageableMin: 0.3,
  pageableMax: 1.0,
  stagingChunkBytes: 2 * 1024 * 1024,
  copyLatencyNs: 10_000,
} as const;

export const ASCEND_910B2: DeviceProfile = {
  ...COMMON,
  name: 'Ascend910B2',
  label: 'Atlas A2 (Ascend 910B2), 64 GiB HBM',
  memoryType: 'HBM',
  capacityBytes: 64 * GiB,
  features: { giantPages: true, p2p: true, vmm: true, vaFlag: true },
  bandwidth: { ...COPY_MODEL, deviceBytesPerSec: 1600 * GB_PER_S, hostLinkBytesPerSec: 65 * GB_PER_S },
  npuArch: 2201,
  sources: {
    ...COMMON_SOURCES,
    capacityBytes: 'RULES.md Products; acl-api.md §7: memory_size 64 GiB in the 910B1–B3 ini files; anchors H1',
    features: 'RULES.md DM-7, DM-8, VM-10, HM-6: 1 GiB pages, P2P, VMM and VA_FLAG on Atlas A2',
    'bandwidth.deviceBytesPerSec': 'anchors H2: 910B2 HBM 1.6 TB/s (CANN ops docs)',
    'bandwidth.hostLinkBytesPerSec':
      'anchors C3: pinned H2D 55.3–56.6 GB/s on an A2/A3 board ⇒ ≈65 GB/s peak at 0.85 efficiency (PCIe Gen5-class)',
    npuArch: 'acl-api.md §7: NPU arch 2201 for 910B',
  },
  assumed: [...COMMON_ASSUMED, 'bandwidth.hostLinkBytesPerSec'],
};

export const ASCEND_910B4: DeviceProfile = {
  ...COMMON,
  name: 'Ascend910B4',
  label: 'Atlas A2 (Ascend 910B4), 32 GiB HBM',
  memoryType: 'HBM',
  capacityBytes: 32 * GiB,
  features: { giantPages: true, p2p: true, vmm: true, vaFlag: true },
  bandwidth: { ...COPY_MODEL, deviceBytesPerSec: 800 * GB_PER_S, hostLinkBytesPerSec: 27 * GB_PER_S },
  npuArch: 2201,
  sources: {
    ...COMMON_SOURCES,
    capacityBytes: 'RULES.md Products; acl-api.md §7: memory_size 32 GiB in the 910B4 ini; anchors H1',
    features: 'RULES.md DM-7, DM-8, VM-10, HM-6: Atlas A2 features',
    'bandwidth.deviceBytesPerSec': 'assumed: 910B4 HBM bandwidth is unpublished (RULES.md Products says "lower"); half of the 910B2 figure',
    'bandwidth.hostLinkBytesPerSec':
      'anchors C2: registered H2D ≈23 GB/s on a 910B4 host ⇒ ≈27 GB/s peak at 0.85 (PCIe Gen4-class); anchors P5',
    npuArch: 'acl-api.md §7: NPU arch 2201 for 910B',
  },
  assumed: [...COMMON_ASSUMED, 'bandwidth.deviceBytesPerSec'],
};

export const ASCEND_910_93: DeviceProfile = {
  ...COMMON,
  name: 'Ascend910_9391',
  label: 'Atlas A3 (Ascend 910_93), one die, 64 GiB HBM',
  memoryType: 'HBM',
  capacityBytes: 64 * GiB,
  features: { giantPages: true, p2p: true, vmm: true, vaFlag: true },
  bandwidth: { ...COPY_MODEL, deviceBytesPerSec: 1600 * GB_PER_S, hostLinkBytesPerSec: 65 * GB_PER_S },
  npuArch: 2201,
  sources: {
    ...COMMON_SOURCES,
    capacityBytes: 'RULES.md Products; acl-api.md §7: 64 GiB per die in the 910_93 ini files; anchors H3',
    features: 'RULES.md DM-7, DM-8, VM-10, HM-6: Atlas A3 features',
    'bandwidth.deviceBytesPerSec': 'anchors H3: ≈3.2 TB/s per card of two dies ⇒ ≈1.6 TB/s per die',
    'bandwidth.hostLinkBytesPerSec': 'anchors C3: pinned 55.3–56.6 GB/s on an A2/A3 board ⇒ ≈65 GB/s peak at 0.85',
    npuArch: 'acl-api.md §7: NPU arch 2201 for 910_93',
  },
  assumed: [...COMMON_ASSUMED, 'bandwidth.hostLinkBytesPerSec'],
};

export const ASCEND_310P3: DeviceProfile = {
  ...COMMON,
  name: 'Ascend310P3',
  label: 'Atlas inference (Ascend 310P3), ≈22.4 GiB DDR',
  memoryType: 'DDR',
  capacityBytes: 24_000_000_000,
  features: { giantPages: false, p2p: false, vmm: false, vaFlag: false },
  bandwidth: { ...COPY_MODEL, deviceBytesPerSec: 204 * GB_PER_S, hostLinkBytesPerSec: 27 * GB_PER_S },
  npuArch: 2002,
  sources: {
    ...COMMON_SOURCES,
    capacityBytes: 'RULES.md Products; acl-api.md §7: memory_size 24,000,000,000 B in the 310P ini files (whole 2 MiB frames: 11,444)',
    features: 'RULES.md DM-7 (no 1 GiB pages), DM-8 (no P2P), VM-10 (no VMM), HM-6 (VA_FLAG A2/A3 only)',
    'bandwidth.deviceBytesPerSec': 'anchors H5: ≈204 GB/s per 310P chip (third-party)',
    'bandwidth.hostLinkBytesPerSec': 'anchors H5: PCIe 4.0 x16; ≈27 GB/s usable peak assumed (anchors C9)',
    npuArch: 'acl-api.md §7: NPU arch 2002 for 310P',
  },
  assumed: [...COMMON_ASSUMED, 'bandwidth.hostLinkBytesPerSec'],
};

export const BUILTIN_PROFILES: readonly DeviceProfile[] = [ASCEND_910B2, ASCEND_910B4, ASCEND_910_93, ASCEND_310P3];
/** The names a host reset or a scenario's host may choose, in table order. */
export const BUILTIN_PROFILE_NAMES: readonly string[] = BUILTIN_PROFILES.map((profile) => profile.name);
export const DEFAULT_PROFILE = ASCEND_910B2;

/** A built-in profile by name (case-insensitive); "910B2" and "Ascend910B2" both work. */
export function findProfile(name: string): DeviceProfile | undefined {
  const wanted = name.toLowerCase().replace(/^ascend/, '');
  return BUILTIN_PROFILES.find((profile) => profile.name.toLowerCase().replace(/^ascend/, '') === wanted);
}
