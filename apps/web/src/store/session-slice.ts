import type { DeviceInfo, HostInfo, Notice, Role, RunInfo } from '@pagelens/core';
import type { StateCreator } from 'zustand';

/** What the agent said about itself and this client in its welcome. */
export interface Session {
  readonly sessionId: string;
  readonly role: Role;
  readonly backend: string;
  readonly host: HostInfo;
  readonly devices: readonly DeviceInfo[];
  readonly functions: ReadonlySet<string>;
  readonly limits: {
    readonly deviceBytes: number;
    readonly pinnedHostBytes: number;
    readonly pageableHostBytes: number;
    readonly liveObjects: number;
    readonly callsPerSecond: number;
  };
  readonly resumeToken?: string;
}

export interface Presence {
  readonly driver: boolean;
  readonly driverWaiting: boolean;
  /** The driver session is being torn down (its driver did not come back); the next driver gets a new one. */
  readonly driverEnding: boolean;
  readonly viewers: number;
}

export interface SessionSlice {
  session: Session | undefined;
  presence: Presence | undefined;
  notices: readonly (Notice & { readonly at: number })[];
  /** The programs `pagelens run` brought to the agent (the processes panel). */
  runs: readonly RunInfo[];
  setSession(session: Session | undefined): void;
  setRuns(runs: readonly RunInfo[]): void;
  setPresence(presence: Presence): void;
  pushNotice(notice: Notice, at: number): void;
  dismissNotice(at: number): void;
}

const MAX_NOTICES = 5;

export const createSessionSlice: StateCreator<SessionSlice, [], [], SessionSlice> = (set) => ({
  session: undefined,
  presence: undefined,
  notices: [],
  runs: [],
  setSession: (session) => set({ session }),
  setRuns: (runs) => set({ runs }),
  setPresence: (presence) => set({ presence }),
  // A newer notice replaces an older one of the same code (each reconnect attempt repeats "another
  // driver session is active", with a new countdown) instead of stacking.
  pushNotice: (notice, at) =>
    set((state) => ({ notices: [...state.notices.filter((n) => n.code !== notice.code), { ...notice, at }].slice(-MAX_NOTICES) })),
  dismissNotice: (at) => set((state) => ({ notices: state.notices.filter((n) => n.at !== at) })),
});

export const selectSession = (state: SessionSlice): Session | undefined => state.session;
export const selectPresence = (state: SessionSlice): Presence | undefined => state.presence;
export const selectNotices = (state: SessionSlice) => state.notices;
export const selectRuns = (state: SessionSlice): readonly RunInfo[] => state.runs;
export const selectIsDriver = (state: SessionSlice): boolean => state.session?.role === 'driver';
