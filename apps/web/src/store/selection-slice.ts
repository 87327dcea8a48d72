import type { StateCreator } from 'zustand';
import type { Target, TargetKind } from '../model/log/effects.ts';

/** Something a user can select: it is highlighted in every view and the inspector tells its story. */
export type ObjectKind = TargetKind;
export type ObjectRef = Target;

export interface SelectionSlice {
  selection: ObjectRef | undefined;
  select(ref: ObjectRef | undefined): void;
}

export const createSelectionSlice: StateCreator<SelectionSlice, [], [], SelectionSlice> = (set) => ({
  selection: undefined,
  select: (selection) => set({ selection }),
});

export const selectSelection = (state: SelectionSlice): ObjectRef | undefined => state.selection;

export function sameRef(a: ObjectRef | undefined, b: ObjectRef | undefined): boolean {
  return a !== undefined && b !== undefined && a.kind === b.kind && a.id === b.id;
}
