import { createStore, type StoreApi } from 'zustand/vanilla';
import { type ConnectionSlice, createConnectionSlice } from './connection-slice.ts';

/** The whole client state: one store made of typed slices. */
export type AppState = ConnectionSlice;
export type AppStore = StoreApi<AppState>;

/** A fresh store per app root (and per test). */
export function createAppStore(): AppStore {
  return createStore<AppState>()((...args) => ({
    ...createConnectionSlice(...args),
  }));
}
