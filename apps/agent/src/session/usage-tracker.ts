import type { MemoryEvent } from '@pagelens/core';
import type { Usage } from './quotas.ts';

interface Holdings {
  deviceBytes: number;
  pinnedHostBytes: number;
  pageableHostBytes: number;
  liveObjects: number;
}

/** One live object and what it charges to its process. */
interface Held {
  readonly pid: number;
  readonly deviceBytes: number;
  /** A host buffer's size (for a registration that pins it later). */
  readonly hostSize: number;
  readonly pageable: boolean;
  pinned: boolean;
  readonly counts: boolean;
}

/** The #imports key of a process's imports of one IPC key (a key is text without a NUL). */
const importsOf = (pid: number, key: string): string => `${pid}\u0000${key}`;

const empty = (): Holdings => ({ deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0 });

/**
 * What each process holds, kept up to date from the event stream so that a quota check costs the
 * same with 10 objects or 100,000 (scanning the state on every call would not). `usageOf` in
 * quotas.ts computes the same figures from a state; the limits tests hold the two equal.
 */
export class UsageTracker {
  readonly #byPid = new Map<number, Holdings>();
  readonly #held = new Map<number, Held>();
  /** Physical memory id → bytes, charged to the process that allocated it until released. */
  readonly #physical = new Map<number, { pid: number; bytes: number }>();
  /** Handle id → references taken with aclrtMemRetainAllocationHandle, each a live object of the handle's process (VM-12). */
  readonly #retains = new Map<number, number>();
  /** IP-1: live IPC keys → the exporting process; IP-3: imports held, by process and key. Each key and import is a live object. */
  readonly #keys = new Map<string, number>();
  readonly #imports = new Map<string, number>();

  #entry(pid: number): Holdings {
    let entry = this.#byPid.get(pid);
    if (entry === undefined) {
      entry = empty();
      this.#byPid.set(pid, entry);
    }
    return entry;
  }

  #charge(held: Held, sign: 1 | -1): void {
    const entry = this.#entry(held.pid);
    entry.deviceBytes += sign * held.deviceBytes;
    if (held.pinned) entry.pinnedHostBytes += sign * held.hostSize;
    if (held.pageable) entry.pageableHostBytes += sign * held.hostSize;
    if (held.counts) entry.liveObjects += sign;
  }

  #add(id: number, pid: number, part: Partial<Omit<Held, 'pid'>> = {}): void {
    const held: Held = { pid, deviceBytes: 0, hostSize: 0, pageable: false, pinned: false, counts: true, ...part };
    this.#held.set(id, held);
    this.#charge(held, 1);
  }

  #remove(id: number): void {
    const held = this.#held.get(id);
    if (held === undefined) return;
    this.#held.delete(id);
    this.#charge(held, -1);
  }

  /** HM-5: a registration that pins pageable memory charges it as pinned until it is unregistered. */
  #pin(id: number, pinned: boolean): void {
    const held = this.#held.get(id);
    if (held === undefined || !held.pageable || held.pinned === pinned) return;
    this.#charge(held, -1);
    held.pinned = pinned;
    this.#charge(held, 1);
  }

  #retainsGone(id: number): void {
    const retains = this.#retains.get(id);
    const pid = this.#held.get(id)?.pid;
    if (retains !== undefined && pid !== undefined) this.#entry(pid).liveObjects -= retains;
    this.#retains.delete(id);
  }

  /** IP-4: a close ends the process's imports of the key, and the key when the process exported it (as reduce does). */
  #ipcClose(pid: number, key: string): void {
    if (this.#keys.get(key) === pid) {
      this.#keys.delete(key);
      this.#entry(pid).liveObjects -= 1;
    }
    const imports = this.#imports.get(importsOf(pid, key));
    if (imports !== undefined) this.#entry(pid).liveObjects -= imports;
    this.#imports.delete(importsOf(pid, key));
  }

  apply(events: readonly MemoryEvent[]): void {
    for (const e of events) {
      switch (e.kind) {
        case 'alloc':
          this.#add(e.id, e.pid, { deviceBytes: e.pages * e.pageSize });
          break;
        case 'physAlloc': {
          const bytes = e.pages * e.pageSize;
          this.#add(e.id, e.pid);
          this.#physical.set(e.id, { pid: e.pid, bytes });
          this.#entry(e.pid).deviceBytes += bytes;
          break;
        }
        case 'import':
        case 'reserve':
        case 'map':
          this.#add(e.id, e.pid);
          break;
        case 'streamCreate':
          if (!e.isDefault) this.#add(e.id, e.pid);
          break;
        // A device's default context comes with aclrtSetDevice; created contexts and every event count.
        case 'contextCreate':
          if (!e.isDefault) this.#add(e.id, e.pid);
          break;
        case 'eventCreate':
          this.#add(e.id, e.pid);
          break;
        case 'hostAlloc':
          this.#add(e.id, e.pid, { hostSize: e.size, pinned: e.memory === 'pinned', pageable: e.memory === 'pageable' });
          break;
        case 'hostRegister':
          if (e.pinned) this.#pin(e.id, true);
          break;
        case 'hostUnregister':
          this.#pin(e.id, false);
          break;
        case 'physRetain': {
          const pid = this.#held.get(e.id)?.pid;
          if (pid !== undefined) this.#entry(pid).liveObjects += e.retains - (this.#retains.get(e.id) ?? 0);
          this.#retains.set(e.id, e.retains);
          break;
        }
        case 'physFree':
          if (e.deferred) break;
          // A handle dropped with references left (a device reset) takes them with it.
          this.#retainsGone(e.id);
          this.#remove(e.id);
          break;
        case 'physRelease': {
          const memory = this.#physical.get(e.id);
          if (memory !== undefined) this.#entry(memory.pid).deviceBytes -= memory.bytes;
          this.#physical.delete(e.id);
          break;
        }
        case 'free':
        case 'release':
        case 'unmap':
        case 'streamDestroy':
        case 'contextDestroy':
        case 'eventDestroy':
        case 'hostFree':
          this.#remove(e.id);
          break;
        case 'ipcExport':
          if (!this.#keys.has(e.key)) this.#entry(e.pid).liveObjects += 1;
          this.#keys.set(e.key, e.pid);
          break;
        case 'ipcImport':
          this.#imports.set(importsOf(e.pid, e.key), (this.#imports.get(importsOf(e.pid, e.key)) ?? 0) + 1);
          this.#entry(e.pid).liveObjects += 1;
          break;
        case 'ipcClose':
          this.#ipcClose(e.pid, e.key);
          break;
        default:
          break;
      }
    }
  }

  usage(pids: ReadonlySet<number>): Usage {
    const total = empty();
    for (const pid of pids) {
      const entry = this.#byPid.get(pid);
      if (entry === undefined) continue;
      total.deviceBytes += entry.deviceBytes;
      total.pinnedHostBytes += entry.pinnedHostBytes;
      total.pageableHostBytes += entry.pageableHostBytes;
      total.liveObjects += entry.liveObjects;
    }
    return total;
  }

  clear(): void {
    this.#byPid.clear();
    this.#held.clear();
    this.#physical.clear();
    this.#retains.clear();
    this.#keys.clear();
    this.#imports.clear();
  }
}
