import type { UnitSystem } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import type { AddressFormat, FormatPrefs } from '../model/format.ts';

export const VIEWS = ['pages', 'address', 'tlb', 'host', 'log', 'playground'] as const;
export type ViewId = (typeof VIEWS)[number];
export type Theme = 'light' | 'dark';
export type ColorBy = 'owner' | 'kind';
/** The playground alone in the centre, or its code beside a memory view. */
export const PLAYGROUND_LAYOUTS = ['split', 'tab'] as const;
export type PlaygroundLayout = (typeof PLAYGROUND_LAYOUTS)[number];
/** The views that can sit beside the playground's code, in their order there. */
export const BESIDE_VIEWS = ['pages', 'address', 'log', 'tlb', 'host'] as const satisfies readonly ViewId[];
export type BesideView = (typeof BESIDE_VIEWS)[number];

export interface UiPrefs {
  readonly theme: Theme;
  readonly units: UnitSystem;
  readonly addresses: AddressFormat;
  readonly colorBy: ColorBy;
  readonly playgroundLayout: PlaygroundLayout;
  readonly besideCode: BesideView;
}

export interface UiSlice extends UiPrefs {
  view: ViewId;
  device: number;
  helpOpen: boolean;
  /** The one process every view shows (the page map dims the others), chosen in the processes panel or by Shift+P; undefined for all. */
  processFilter: number | undefined;
  setView(view: ViewId): void;
  setProcessFilter(pid: number | undefined): void;
  setDevice(device: number): void;
  setPrefs(prefs: Partial<UiPrefs>): void;
  setHelpOpen(open: boolean): void;
}

const STORAGE_KEY = 'pagelens.prefs';

export const DEFAULT_PREFS: UiPrefs = {
  theme: 'light',
  units: 'binary',
  addresses: 'hex',
  colorBy: 'owner',
  playgroundLayout: 'split',
  besideCode: 'pages',
};

/** Remembered preferences; anything unreadable falls back to the defaults. */
export function loadPrefs(storage: Pick<Storage, 'getItem'> | undefined, prefersDark: boolean): UiPrefs {
  const base: UiPrefs = { ...DEFAULT_PREFS, theme: prefersDark ? 'dark' : 'light' };
  let saved: unknown;
  try {
    saved = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    return base;
  }
  if (saved === null || typeof saved !== 'object') return base;
  const pick = <K extends keyof UiPrefs>(key: K, allowed: readonly UiPrefs[K][]): UiPrefs[K] => {
    const value: unknown = Reflect.get(saved, key);
    return allowed.find((item) => item === value) ?? base[key];
  };
  return {
    theme: pick('theme', ['light', 'dark']),
    units: pick('units', ['binary', 'decimal']),
    addresses: pick('addresses', ['hex', 'dec']),
    colorBy: pick('colorBy', ['owner', 'kind']),
    playgroundLayout: pick('playgroundLayout', PLAYGROUND_LAYOUTS),
    besideCode: pick('besideCode', BESIDE_VIEWS),
  };
}

export function savePrefs(storage: Pick<Storage, 'setItem'> | undefined, prefs: UiPrefs): void {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(prefs));
  } catch {
    // Storage may be full or disabled: preferences then last for this page only.
  }
}

export function createUiSlice(initial: UiPrefs, storage: Pick<Storage, 'setItem'> | undefined): StateCreator<UiSlice, [], [], UiSlice> {
  return (set, get) => ({
    ...initial,
    view: 'pages',
    device: 0,
    helpOpen: false,
    processFilter: undefined,
    setView: (view) => set({ view }),
    setProcessFilter: (processFilter) => set({ processFilter }),
    setDevice: (device) => set({ device }),
    setPrefs: (prefs) => {
      set(prefs);
      const { theme, units, addresses, colorBy, playgroundLayout, besideCode } = get();
      savePrefs(storage, { theme, units, addresses, colorBy, playgroundLayout, besideCode });
    },
    setHelpOpen: (helpOpen) => set({ helpOpen }),
  });
}

export const selectView = (state: UiSlice): ViewId => state.view;
export const selectDevice = (state: UiSlice): number => state.device;
export const selectProcessFilter = (state: UiSlice): number | undefined => state.processFilter;
export const selectTheme = (state: UiSlice): Theme => state.theme;
export const selectFormat = (state: UiSlice): FormatPrefs => ({ units: state.units, addresses: state.addresses });
