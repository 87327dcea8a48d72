import { createStore, type StoreApi } from 'zustand/vanilla';
import type { HistoryLimits } from '../model/timeline.ts';
import { type ActionsSlice, createActionsSlice } from './actions-slice.ts';
import { type ClassroomSlice, createClassroomSlice } from './classroom-slice.ts';
import { type ConnectionSlice, createConnectionSlice } from './connection-slice.ts';
import { createFollowSlice, type FollowSlice } from './follow-slice.ts';
import { createImportSlice, type ImportSlice } from './import-slice.ts';
import { createReplicaSlice, type PublishScheduler, type ReplicaSlice } from './replica-slice.ts';
import { createSelectionSlice, type SelectionSlice } from './selection-slice.ts';
import { createSessionSlice, type SessionSlice } from './session-slice.ts';
import { createUiSlice, DEFAULT_PREFS, type UiPrefs, type UiSlice } from './ui-slice.ts';

/** The whole client state: one store made of typed slices. */
export type AppState = ConnectionSlice &
  SessionSlice &
  ReplicaSlice &
  SelectionSlice &
  UiSlice &
  ActionsSlice &
  ImportSlice &
  ClassroomSlice &
  FollowSlice;
export type AppStore = StoreApi<AppState>;

export interface StoreOptions {
  readonly prefs?: UiPrefs;
  readonly storage?: Pick<Storage, 'setItem'>;
  /** When views hear of new events (default: at once). The app passes `framePublisher`. */
  readonly publish?: PublishScheduler;
  /** The history the replica keeps (DEFAULT_HISTORY; tests use small ones). */
  readonly history?: HistoryLimits;
}

/** A fresh store per app root (and per test). */
export function createAppStore(options: StoreOptions = {}): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createConnectionSlice(...args),
    ...createSessionSlice(...args),
    ...createReplicaSlice(options.publish, options.history)(...args),
    ...createSelectionSlice(...args),
    ...createUiSlice(options.prefs ?? DEFAULT_PREFS, options.storage)(...args),
    ...createActionsSlice(...args),
    ...createImportSlice(...args),
    ...createClassroomSlice(...args),
    ...createFollowSlice(...args),
  }));
}
