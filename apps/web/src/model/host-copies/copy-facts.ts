import { aclrtMemcpyKind, type CopyRecord, type HostState, type Reason } from '@pagelens/core';
import { address, bytes, duration, exactBytes, type FormatPrefs, rate } from '../format.ts';
import { bufferAt, bufferMemory } from './buffer-rows.ts';
import type { RateSpread } from './rate-spread.ts';

/** What a copy's address points into, as far as the state at the cursor knows. */
export type Endpoint =
  | { readonly side: 'host'; readonly id: number; readonly memory: 'pageable' | 'pinned' | 'pinned-by-registration' }
  /** For an IPC import (IP-3), `id` is the exported allocation it reaches. */
  | { readonly side: 'device'; readonly id: number; readonly device: number; readonly what: 'allocation' | 'mapping' | 'ipcImport' }
  | { readonly side: 'gone' };

export function endpointOf(state: HostState, pid: number, addr: number): Endpoint {
  const buffer = bufferAt(state, pid, addr);
  if (buffer !== undefined) return { side: 'host', id: buffer.id, memory: bufferMemory(buffer) };
  for (const a of state.allocations.values()) {
    if (a.pid === pid && addr >= a.addr && addr < a.addr + a.size)
      return { side: 'device', id: a.id, device: a.device, what: 'allocation' };
  }
  for (const m of state.mappings.values()) {
    if (m.pid === pid && addr >= m.addr && addr < m.addr + m.size) return { side: 'device', id: m.id, device: m.device, what: 'mapping' };
  }
  // IP-3: another process's allocation reached through an import; gone once its exporter freed it (IP-4).
  for (const item of state.ipcImports.values()) {
    if (item.pid !== pid || addr < item.addr || addr >= item.addr + item.size) continue;
    if (!state.allocations.has(item.source)) return { side: 'gone' };
    return { side: 'device', id: item.source, device: item.device, what: 'ipcImport' };
  }
  return { side: 'gone' };
}

/** Which resource a queued copy waited for, from its CP-4 reason. */
export function waitResource(reasons: readonly Reason[] | undefined): 'stream' | 'link' | undefined {
  const resource = reasons?.find((r) => r.code === 'copy-waits')?.values?.resource;
  return resource === 'stream' || resource === 'link' ? resource : undefined;
}

/** One row of the tooltip / details card: a label key and a value that is either text or a message key. */
export interface Fact {
  /** Key under `hostCopies.facts.` of the row label. */
  readonly label: string;
  readonly value: string;
  /** `value` is a message key to translate with `params`. */
  readonly translate?: boolean;
  readonly params?: Readonly<Record<string, string | number>>;
  /** Rule IDs behind the row. */
  readonly rules?: readonly string[];
}

export interface CopyFactsContext {
  readonly prefs: FormatPrefs;
  readonly src: Endpoint;
  readonly dst: Endpoint;
  /** Staging chunk size of the copy's device profile (bytes). */
  readonly chunkBytes?: number;
  readonly waitedFor?: 'stream' | 'link';
  /** How many other copies moved bytes at the same time. */
  readonly overlaps: number;
  /** The range the simulator drew this copy's rate from (CP-3), when it has one. */
  readonly spread?: RateSpread;
}

function endpointFact(label: string, addr: number, end: Endpoint, prefs: FormatPrefs): Fact {
  const at = address(addr, prefs);
  switch (end.side) {
    case 'host':
      return { label, value: `hostCopies.endpoint.host.${end.memory}`, translate: true, params: { at, id: end.id } };
    case 'device':
      return { label, value: `hostCopies.endpoint.${end.what}`, translate: true, params: { at, id: end.id, device: end.device } };
    case 'gone':
      return { label, value: 'hostCopies.endpoint.gone', translate: true, params: { at } };
  }
}

/**
 * Everything a person may want to know about one copy, in display order: what, how much, which
 * path and how fast, whether the host thread waited, when it queued and ran, and what overlapped.
 */
export function copyFacts(copy: CopyRecord, context: CopyFactsContext): Fact[] {
  const { prefs } = context;
  const facts: Fact[] = [
    { label: 'kind', value: aclrtMemcpyKind.nameOf(copy.memcpyKind) ?? String(copy.memcpyKind), rules: ['CP-2'] },
    { label: 'size', value: `${bytes(copy.bytes, prefs)} (${exactBytes(copy.bytes)})` },
  ];
  if (copy.path === 'pageable-staged') {
    const chunk = bytes(context.chunkBytes ?? Math.ceil(copy.bytes / Math.max(1, copy.stages)), prefs);
    facts.push({
      label: 'path',
      value: 'hostCopies.pathDetail.staged',
      translate: true,
      params: { stages: copy.stages, chunk },
      rules: ['HM-1'],
    });
  } else {
    facts.push({
      label: 'path',
      value: `hostCopies.pathDetail.${copy.path}`,
      translate: true,
      rules: copy.path === 'pinned' ? ['HM-2'] : ['CP-3'],
    });
  }
  facts.push({ label: 'bandwidth', value: rate(copy.bytesPerSec), rules: ['CP-3'] });
  if (context.spread !== undefined)
    facts.push({
      label: 'spread',
      value: 'common.rateSpread',
      translate: true,
      params: { low: rate(context.spread.low), high: rate(context.spread.high) },
    });
  facts.push({ label: 'duration', value: duration(copy.end - copy.start) });
  facts.push({ label: 'mode', value: `hostCopies.mode.${copy.mode}`, translate: true, rules: copy.mode === 'sync' ? ['CP-1'] : ['HM-3'] });
  facts.push(
    copy.mode === 'async'
      ? { label: 'host', value: 'hostCopies.facts.hostFree', translate: true, rules: ['HM-3'] }
      : {
          label: 'host',
          value: 'hostCopies.facts.hostBlocked',
          translate: true,
          params: { time: duration(copy.end - copy.submit) },
          rules: copy.mode === 'sync' ? ['CP-1'] : ['HM-3'],
        },
  );
  facts.push(
    copy.stream === undefined
      ? { label: 'stream', value: 'hostCopies.facts.noStream', translate: true }
      : { label: 'stream', value: 'hostCopies.facts.onStream', translate: true, params: { id: copy.stream, device: copy.device } },
  );
  facts.push({ label: 'submit', value: duration(copy.submit) });
  if (copy.start > copy.submit) {
    const resource = context.waitedFor ?? 'unknown';
    facts.push({
      label: 'queued',
      value: `hostCopies.facts.queuedFor.${resource}`,
      translate: true,
      params: { time: duration(copy.start - copy.submit) },
      rules: ['CP-4'],
    });
  }
  facts.push({ label: 'start', value: duration(copy.start) });
  facts.push({ label: 'end', value: duration(copy.end) });
  facts.push(endpointFact('src', copy.src, context.src, prefs));
  facts.push(endpointFact('dst', copy.dst, context.dst, prefs));
  facts.push({
    label: 'overlap',
    value: 'hostCopies.facts.overlaps',
    translate: true,
    params: { count: context.overlaps },
    rules: ['CP-4'],
  });
  return facts;
}

/** The short text drawn inside a wide enough bar: "64 MiB · 55.3 GB/s". */
export function barLabel(copy: CopyRecord, prefs: FormatPrefs): string {
  return `${bytes(copy.bytes, prefs)} · ${rate(copy.bytesPerSec)}`;
}
