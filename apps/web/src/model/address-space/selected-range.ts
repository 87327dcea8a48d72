import { indexOfObject, RangeKind, type StripModel } from './strip-model.ts';

/** The VA range of the selected object when the strip shows it (allocations, mappings, reservations). */
export function selectedRange(
  model: StripModel,
  selection: { readonly kind: string; readonly id: number } | undefined,
): { start: number; end: number } | undefined {
  if (selection === undefined) return undefined;
  const lookup = (kind: RangeKind, set: StripModel['blocks']) => {
    const index = indexOfObject(set, kind, selection.id);
    return index < 0 ? undefined : { start: set.start[index] ?? 0, end: set.end[index] ?? 0 };
  };
  switch (selection.kind) {
    case 'allocation':
      return lookup(RangeKind.allocation, model.blocks);
    case 'mapping':
      return lookup(RangeKind.mapping, model.blocks);
    case 'reservation':
      return lookup(RangeKind.reservation, model.reservations);
    default:
      return undefined;
  }
}
