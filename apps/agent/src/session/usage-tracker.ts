import type { MemoryEvent } from '@pagelens/core';
import type { Usage } from './quotas.ts';

interface Held {
  readonly pid: number;
  readonly deviceBytes: number;
  pinnedBytes: number;
  readonly counts: boolean;
}

/**
 * What each process holds, kept up to date from the event stream so that a quota check costs the
 * same with 10 objects or 100,000 (scanning the state on every call would not).
 */
export class UsageTracker {
  readonly #byPid = new Map<number, { deviceBytes: number; pinnedHostBytes: number; liveObjects: number }>();
  readonly #held = new Map<number, Held>();
  /** Physical memory id → [owning pid, bytes], charged to the process that allocated it until released. */
  readonly #physical = new Map<number, Held>();

  #entry(pid: number) {
    let entry = this.#byPid.get(pid);
    if (entry === undefined) {
      entry = { deviceBytes: 0, pinnedHostBytes: 0, liveObjects: 0 };
      this.#byPid.set(pid, entry);
    }
    return entry;
  }

  #add(id: number, held: Held): void {
    this.#held.set(id, held);
    const entry = this.#entry(held.pid);
    entry.deviceBytes += held.deviceBytes;
    entry.pinnedHostBytes += held.pinnedBytes;
    if (held.counts) entry.liveObjects += 1;
  }

  #remove(id: number): void {
    const held = this.#held.get(id);
    if (held === undefined) return;
    this.#held.delete(id);
    const entry = this.#entry(held.pid);
    entry.deviceBytes -= held.deviceBytes;
    entry.pinnedHostBytes -= held.pinnedBytes;
    if (held.counts) entry.liveObjects -= 1;
  }

  apply(events: readonly MemoryEvent[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'alloc':
          this.#add(e.id, { pid: e.pid, deviceBytes: e.pages * e.pageSize, pinnedBytes: 0, counts: true });
          break;
        case 'physAlloc': {
          const bytes = e.pages * e.pageSize;
          this.#add(e.id, { pid: e.pid, deviceBytes: 0, pinnedBytes: 0, counts: true });
          this.#physical.set(e.id, { pid: e.pid, deviceBytes: bytes, pinnedBytes: 0, counts: false });
          this.#entry(e.pid).deviceBytes += bytes;
          break;
        }
        case 'import':
        case 'reserve':
        case 'map':
          this.#add(e.id, { pid: e.pid, deviceBytes: 0, pinnedBytes: 0, counts: true });
          break;
        case 'streamCreate':
          if (!e.isDefault) this.#add(e.id, { pid: e.pid, deviceBytes: 0, pinnedBytes: 0, counts: true });
          break;
        case 'hostAlloc':
          this.#add(e.id, { pid: e.pid, deviceBytes: 0, pinnedBytes: e.memory === 'pinned' ? e.size : 0, counts: true });
          break;
        case 'hostRegister': {
          const held = this.#held.get(e.id);
          if (held !== undefined && held.pinnedBytes === 0 && e.pinned) {
            this.#remove(e.id);
            this.#add(e.id, { ...held, pinnedBytes: this.#sizes.get(e.id) ?? 0 });
          }
          break;
        }
        case 'physFree':
          if (!e.deferred) this.#remove(e.id);
          break;
        case 'physRelease': {
          const memory = this.#physical.get(e.id);
          if (memory !== undefined) this.#entry(memory.pid).deviceBytes -= memory.deviceBytes;
          this.#physical.delete(e.id);
          break;
        }
        case 'free':
        case 'release':
        case 'unmap':
        case 'streamDestroy':
        case 'hostFree':
          this.#remove(e.id);
          this.#sizes.delete(e.id);
          break;
        default:
          break;
      }
      if (e.kind === 'hostAlloc') this.#sizes.set(e.id, e.size);
    }
  }

  /** Host buffer sizes, for a later registration that pins them. */
  readonly #sizes = new Map<number, number>();

  usage(pids: ReadonlySet<number>): Usage {
    let deviceBytes = 0;
    let pinnedHostBytes = 0;
    let liveObjects = 0;
    for (const pid of pids) {
      const entry = this.#byPid.get(pid);
      if (entry === undefined) continue;
      deviceBytes += entry.deviceBytes;
      pinnedHostBytes += entry.pinnedHostBytes;
      liveObjects += entry.liveObjects;
    }
    return { deviceBytes, pinnedHostBytes, liveObjects };
  }

  clear(): void {
    this.#byPid.clear();
    this.#held.clear();
    this.#physical.clear();
    this.#sizes.clear();
  }
}
