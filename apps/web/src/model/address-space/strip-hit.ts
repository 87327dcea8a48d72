import { bytesPerPixel, type Domain, hitRanges, holeAround, type StripView, xToVa } from './strip-layout.ts';
import { RangeKind, rangeAt, type StripModel } from './strip-model.ts';

/** What the pointer is over on the strip, at VA `va`. */
export type StripTarget =
  /** One or more filled ranges (allocations, mappings) within half a pixel: indices [first, last) of `blocks`. */
  | { readonly kind: 'blocks'; readonly va: number; readonly first: number; readonly last: number }
  /** Reserved VA that no mapping covers; `start`–`end` is the unmapped gap, `index` the reservation. */
  | { readonly kind: 'reserved'; readonly va: number; readonly index: number; readonly start: number; readonly end: number }
  | { readonly kind: 'hole'; readonly va: number; readonly start: number; readonly end: number };

export function hitTest(model: StripModel, view: StripView, x: number): StripTarget {
  const va = Math.max(model.domainStart, Math.min(model.domainEnd - 1, Math.floor(xToVa(view, x))));
  const hit = hitRanges(model.blocks, va, bytesPerPixel(view) / 2);
  if (hit.last > hit.first) return { kind: 'blocks', va, first: hit.first, last: hit.last };
  const index = rangeAt(model.reservations, va);
  if (index >= 0) {
    const reservation: Domain = { start: model.reservations.start[index] ?? va, end: model.reservations.end[index] ?? va };
    const gap = holeAround([model.blocks], reservation, va);
    return { kind: 'reserved', va, index, ...gap };
  }
  const gap = holeAround([model.blocks, model.reservations], { start: model.domainStart, end: model.domainEnd }, va);
  return { kind: 'hole', va, ...gap };
}

/** The selectable object a target stands for, when it is exactly one. */
export function targetObject(
  model: StripModel,
  target: StripTarget,
): { kind: 'allocation' | 'mapping' | 'reservation'; id: number } | undefined {
  if (target.kind === 'reserved') return { kind: 'reservation', id: model.reservations.id[target.index] ?? 0 };
  if (target.kind !== 'blocks' || target.last - target.first !== 1) return undefined;
  // An IPC import selects the allocation it reaches (IP-3).
  const kind = model.blocks.kind[target.first] === RangeKind.mapping ? 'mapping' : 'allocation';
  return { kind, id: model.blocks.id[target.first] ?? 0 };
}
