import type { CallAnswer, CodedText } from '@pagelens/core';
import type { StateCreator } from 'zustand';

/** What a call from this client answered, for the actions panel and the toast: its id, and when (ms). */
/** An answered call as the store keeps it: the answer, the call's id and when it was answered. */
export type CallOutcome = CallAnswer & { readonly id: number; readonly at: number };

/** How a reset this page asked for ended: done (the reset snapshot came), or refused with the agent's words. */
export type ResetOutcome = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly messageCode?: CodedText };

export interface ActionsSlice {
  pending: number;
  lastOutcome: CallOutcome | undefined;
  outcomes: readonly CallOutcome[];
  setPending(pending: number): void;
  recordOutcome(outcome: CallOutcome): void;
}

const KEEP = 50;

export const createActionsSlice: StateCreator<ActionsSlice, [], [], ActionsSlice> = (set) => ({
  pending: 0,
  lastOutcome: undefined,
  outcomes: [],
  setPending: (pending) => set({ pending }),
  recordOutcome: (outcome) => set((state) => ({ lastOutcome: outcome, outcomes: [...state.outcomes, outcome].slice(-KEEP) })),
});

export const selectLastOutcome = (state: ActionsSlice): CallOutcome | undefined => state.lastOutcome;
export const selectPending = (state: ActionsSlice): number => state.pending;
