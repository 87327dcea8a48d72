import { z } from 'zod';

/** TLB geometry of one page class. Ascend TLB sizes are not published (PT-3): always *assumed*. */
export const TlbClass = z.strictObject({
  entries: z
    .number()
    .int()
    .positive()
    .max(1 << 20),
  ways: z.number().int().positive(),
});

const Bandwidth = z.number().positive().max(1e14);

/**
 * Everything PageLens assumes about one device model. Each figure comes with its source in
 * `sources`; anything PageLens had to assume is named in `assumed`.
 */
export const DeviceProfile = z
  .strictObject({
    /** Profile name, also what aclrtGetSocName reports on the simulator. */
    name: z.string().min(1).max(64),
    label: z.string().min(1).max(120),
    memoryType: z.enum(['HBM', 'DDR']),
    /** Usable device memory in bytes; the simulator uses whole 2 MiB frames of it. */
    capacityBytes: z
      .number()
      .int()
      .min(64 * 1024 * 1024)
      .max(2 ** 42),
    /** Normal page size: the host kernel page size, 4 KiB or 64 KiB (DM-11). */
    normalPageSize: z.union([z.literal(4096), z.literal(65536)]),
    /** Extra bytes aclrtMalloc adds before 32-byte rounding (DM-3): 32 on 910B, 910_93 and 310P, 0 on Ascend 950. */
    padding: z.number().int().min(0).max(1024),
    features: z.strictObject({
      giantPages: z.boolean(),
      p2p: z.boolean(),
      vmm: z.boolean(),
      /** aclrtMallocHostWithCfg VA_FLAG (HM-6): A2/A3 only. */
      vaFlag: z.boolean(),
    }),
    bandwidth: z.strictObject({
      /** Device memory bandwidth in bytes per second (device-to-device copies). */
      deviceBytesPerSec: Bandwidth,
      /** Host link peak per direction in bytes per second. */
      hostLinkBytesPerSec: Bandwidth,
      /** Pinned copies reach this fraction of the link peak (CP-3: 0.8–0.9). */
      pinnedEfficiency: z.number().min(0.05).max(1),
      /** Pageable copies run at a fraction of the pinned rate drawn from [min, max] (CP-3: 0.3–1.0). */
      pageableMin: z.number().min(0.01).max(1),
      pageableMax: z.number().min(0.01).max(1),
      /** Pageable copies stage through a bounce buffer in chunks of this size (HM-1; modeled). */
      stagingChunkBytes: z
        .number()
        .int()
        .min(4096)
        .max(1 << 30),
      /** Fixed cost of any copy in nanoseconds (modeled). */
      copyLatencyNs: z.number().int().min(0).max(1e9),
    }),
    host: z.strictObject({
      /** Linux kernel release of the simulated host (HM-5: ≤ 5.10 refuses registering malloc memory). */
      kernelVersion: z.string().regex(/^\d+\.\d+(\.\d+)?/, 'a kernel release such as "5.15.0"'),
      pageSize: z.union([z.literal(4096), z.literal(65536)]),
    }),
    /** Per page class TLB geometry. Assumed: Ascend TLB sizes are unpublished (PT-3). */
    tlb: z.strictObject({ normal: TlbClass, huge: TlbClass, giant: TlbClass }),
    npuArch: z.number().int().nonnegative(),
    /** Where each figure comes from, keyed by field name. */
    sources: z.record(z.string(), z.string()),
    /** Field names whose values are PageLens's assumptions rather than published facts. */
    assumed: z.array(z.string()),
  })
  .superRefine((profile, context) => {
    if (profile.bandwidth.pageableMin > profile.bandwidth.pageableMax) {
      context.addIssue({ code: 'custom', path: ['bandwidth', 'pageableMin'], message: 'pageableMin must not exceed pageableMax' });
    }
    for (const pageClass of ['normal', 'huge', 'giant'] as const) {
      const { entries, ways } = profile.tlb[pageClass];
      if (entries % ways !== 0) {
        context.addIssue({ code: 'custom', path: ['tlb', pageClass, 'ways'], message: `ways (${ways}) must divide entries (${entries})` });
      }
    }
  });
export type DeviceProfile = z.infer<typeof DeviceProfile>;

/** Size of the simulator's physical frames: one 2 MiB huge page (DM-11). */
export const FRAME_BYTES = 2 * 1024 * 1024;

/** How many devices a simulated host may have: what `serve --devices` and a host reset accept. */
export const SIMULATED_DEVICES = { min: 1, max: 16 } as const;

/** Whole 2 MiB frames of a profile's capacity. */
export function frameCount(profile: DeviceProfile): number {
  return Math.floor(profile.capacityBytes / FRAME_BYTES);
}

/** Major and minor of a kernel release, for the HM-5 "≤ 5.10" rule. */
export function kernelAtMost(release: string, major: number, minor: number): boolean {
  const match = /^(\d+)\.(\d+)/.exec(release);
  if (match === null) return false;
  const [, a = '0', b = '0'] = match;
  return Number(a) < major || (Number(a) === major && Number(b) <= minor);
}
