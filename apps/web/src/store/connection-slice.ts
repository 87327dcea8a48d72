import type { CodedText, HostInfo, Role } from '@pagelens/core';
import type { StateCreator } from 'zustand';

/** Every state the link to the agent can be in; the UI shows each one with what to do next. */
export type Connection =
  | { readonly status: 'no-token' }
  | { readonly status: 'connecting'; readonly attempt: number }
  | {
      readonly status: 'connected';
      readonly backend: string;
      readonly protocol: number;
      readonly role: Role;
      readonly sessionId: string;
      readonly host: HostInfo;
    }
  | { readonly status: 'unauthorized'; readonly reason: string }
  | { readonly status: 'unreachable'; readonly attempt: number; readonly retryAt: number }
  /** The agent is up but another client holds the driver session; retrying until it ends. */
  | {
      readonly status: 'driver-busy';
      readonly message: string;
      readonly messageCode?: CodedText;
      readonly attempt: number;
      readonly retryAt: number;
    }
  /**
   * Asked to drive while the agent tears down a session whose driver did not come back in time: the
   * agent holds the hello and welcomes this page as the driver once the teardown ends.
   */
  | { readonly status: 'waiting-teardown'; readonly message: string; readonly messageCode?: CodedText }
  | { readonly status: 'incompatible'; readonly message: string; readonly messageCode?: CodedText };

export interface ConnectionSlice {
  connection: Connection;
  setConnection(connection: Connection): void;
}

export const createConnectionSlice: StateCreator<ConnectionSlice, [], [], ConnectionSlice> = (set) => ({
  connection: { status: 'connecting', attempt: 1 },
  setConnection: (connection) => set({ connection }),
});

export const selectConnection = (state: ConnectionSlice): Connection => state.connection;
