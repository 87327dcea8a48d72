import { FRAME_BYTES, FrameKind, type HostState, toHex } from '@pagelens/core';
import type { FormatPrefs } from '../format.ts';
import type { Target } from '../log/effects.ts';
import { type Fact, type Inspection, keyed, size, text } from './fact.ts';

const KIND_NAMES = ['free', 'huge', 'giant', 'split'] as const;

/** The object an owner id names: an aclrtMalloc allocation or VMM physical memory. */
export function ownerTarget(state: HostState, owner: number, device: number): Target | undefined {
  if (owner <= 0) return undefined;
  if (state.allocations.has(owner)) return { kind: 'allocation', id: owner, device };
  if (state.physical.has(owner)) return { kind: 'physical', id: owner, device };
  return undefined;
}

/**
 * One 2 MiB frame of a device: free, a huge page, part of a giant page, or split into normal
 * pages with their owners (DM-11). Placement is modeled, so every fact here is too.
 */
export function frameInspection(state: HostState, device: number, frame: number, prefs: FormatPrefs): Inspection | undefined {
  const table = state.devices[device]?.frames;
  if (table === undefined || frame < 0 || frame >= table.count) return undefined;
  const kind = KIND_NAMES[table.kind[frame] ?? FrameKind.free] ?? 'free';
  const facts: Fact[] = [
    text('inspector.fact.device', String(device)),
    text('inspector.fact.frame', `${frame} / ${table.count}`),
    text('inspector.fact.physicalOffset', toHex(frame * FRAME_BYTES), { provenance: 'modeled' }),
    keyed('inspector.fact.frameKind', `inspector.frameKind.${kind}`, undefined, { provenance: 'modeled' }),
  ];
  const related: { label: string; target: Target }[] = [];
  const owner = ownerTarget(state, table.owner[frame] ?? 0, device);
  if (owner !== undefined) facts.push(text('inspector.fact.owner', `#${owner.id}`, { link: owner }));
  if (kind === 'split') {
    const used = table.used[frame] ?? 0;
    facts.push(
      text('inspector.fact.pagesUsed', `${used} / ${table.pagesPerFrame}`),
      size('inspector.fact.pageSize', FRAME_BYTES / table.pagesPerFrame, prefs),
    );
    const owners = table.pages.get(frame);
    if (owners !== undefined) {
      const ids = [...new Set(owners)].filter((id) => id > 0);
      for (const id of ids) {
        const target = ownerTarget(state, id, device);
        if (target !== undefined) related.push({ label: 'inspector.related.pageOwner', target });
      }
    }
  }
  return { facts, reasons: [], rules: ['DM-11'], related };
}
