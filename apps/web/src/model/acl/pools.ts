import type { DeviceState, PageClass, PoolFigures } from '@pagelens/core';
import { pageBytes } from '@pagelens/core';

/** Bytes of one aclrtGetMemInfo figure pair, with used = total − free. */
export interface Usage {
  readonly used: number;
  readonly free: number;
  readonly total: number;
}

/** One pool of the last aclrtGetMemInfo reading (DM-15). */
export interface PoolLine extends Usage {
  readonly pool: PageClass;
}

/** What the last reading of a device says: its pools, and who holds the used memory. */
export interface PoolReading {
  readonly seq: number;
  /** Backend time of the reading, ns. */
  readonly t: number;
  readonly pools: readonly PoolLine[];
  /** The whole device (ACL_HBM_MEM). */
  readonly all: Usage;
  /** Bytes this agent's sessions held at the reading, when the agent said. */
  readonly own?: number;
  /** Used bytes beyond `own`: other processes and the runtime itself. */
  readonly others?: number;
}

const CLASSES: readonly PageClass[] = ['normal', 'huge', 'giant'];

function usage(figures: PoolFigures): Usage {
  const total = Math.max(0, figures.total);
  const free = Math.min(total, Math.max(0, figures.free));
  return { used: total - free, free, total };
}

/** The device's last pool reading, or undefined when the runtime has not reported one yet. */
export function poolReading(device: DeviceState): PoolReading | undefined {
  const sample = device.lastSample;
  if (sample === undefined) return undefined;
  const all = usage(sample.pools.all);
  const own = sample.ownBytes;
  return {
    seq: sample.seq,
    t: sample.t,
    // A device without 1 GiB pages reads 0 of 0 there (DM-15: 207000); leave that pool out.
    pools: CLASSES.map((pool) => ({ pool, ...usage(sample.pools[pool]) })).filter((entry) => entry.pool !== 'giant' || entry.total > 0),
    all,
    ...(own === undefined ? {} : { own, others: Math.max(0, all.used - own) }),
  };
}

/** Whole free pages of `pageClass` in the last reading, or undefined without one. */
export function observedFreePages(device: DeviceState, pageClass: PageClass): number | undefined {
  const sample = device.lastSample;
  if (sample === undefined) return undefined;
  return Math.floor(Math.max(0, sample.pools[pageClass].free) / pageBytes(pageClass, device.profile));
}
