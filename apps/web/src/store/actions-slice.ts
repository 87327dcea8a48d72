import type { StateCreator } from 'zustand';

/** What the last call from this client answered, for the actions panel and the toast. */
export interface CallOutcome {
  readonly id: number;
  readonly fn: string;
  readonly ok: boolean;
  /** ACL code, or undefined when the agent refused the message itself (an `error`). */
  readonly ret?: number;
  readonly retName?: string;
  readonly message?: string;
  readonly out?: Readonly<Record<string, unknown>>;
  readonly events: readonly number[];
  readonly at: number;
}

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
