import { BlockIndex, type StackTable, unpackEvents } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import type { ImportedFacts, ProfilerTable, SessionPayload } from '../model/import/import-protocol.ts';
import { CHECKPOINT_EVERY, DEFAULT_HISTORY, Timeline } from '../model/timeline.ts';
import type { ReplicaSlice } from './replica-slice.ts';
import type { SelectionSlice } from './selection-slice.ts';
import type { Session, SessionSlice } from './session-slice.ts';

/** A file being read: how far, for the progress bar. */
export interface ImportProgress {
  readonly name: string;
  readonly bytesRead: number;
  readonly total: number;
}

/** Why the last file did not open: the reader's message (English, from core). */
export type ImportProblem = { readonly name: string; readonly kind: 'format'; readonly message: string; readonly at: number | undefined };

/** A profiler CSV shown as it is (components/import/ProfilerCsv.tsx): it has no addresses, so no session. */
export interface OpenedProfilerCsv {
  readonly name: string;
  readonly bytes: number;
  readonly table: ProfilerTable;
}

export interface ImportSlice {
  /** The recorded file the explorer shows, read-only; undefined for a live agent session. */
  imported: ImportedFacts | undefined;
  /** Its blocks over time (formats/block-index.ts). */
  importedBlocks: BlockIndex | undefined;
  /** Their stacks, interned (formats/stack-table.ts): a block's `stack` is its id here. */
  importedStacks: StackTable | undefined;
  importing: ImportProgress | undefined;
  importProblem: ImportProblem | undefined;
  /** The profiler CSV last opened, shown above the explorer until closed. */
  profilerCsv: OpenedProfilerCsv | undefined;
  setProfilerCsv(csv: OpenedProfilerCsv | undefined): void;
  /** `pagelens open`: the file the agent serves instead of a session; the page joins none. */
  agentFile: string | undefined;
  setAgentFile(name: string | undefined): void;
  /** A Perfetto export under way (net/perfetto-exporter.ts): what is read, how far. */
  exporting: ImportProgress | undefined;
  /** Why the last export failed, in the reader's words. */
  exportProblem: string | undefined;
  /**
   * The last export was more JSON than ui.perfetto.dev holds in a browser tab (core
   * perfettoNeedsNative): its name and size, for the advice to open it through trace_processor.
   */
  exportTooLarge: { readonly name: string; readonly bytes: number } | undefined;
  setExportTooLarge(large: { readonly name: string; readonly bytes: number } | undefined): void;
  setExporting(progress: ImportProgress | undefined): void;
  /** Text a block's stack must hold to be listed (block lists of the recording); '' lists all. */
  stackFilter: string;
  setStackFilter(text: string): void;
  setExportProblem(message: string | undefined): void;
  setImporting(progress: ImportProgress | undefined): void;
  setImportProblem(problem: ImportProblem | undefined): void;
  /**
   * Replaces what the explorer shows with the imported session: its own timeline, a viewer's
   * session, no agent. `reading`: the worker reads on (the segments-first view), so the progress stays.
   */
  loadImported(payload: SessionPayload, options?: { readonly reading?: boolean }): void;
}

/**
 * States a long recording keeps as it loads (Timeline keyframeEvery): a 10 M-event file then
 * replays at most ~310,000 events for any jump, for 32 copies of a HostState (its frame tables
 * are typed arrays of one entry per 2 MiB frame).
 */
const RECORDING_KEYFRAMES = 32;

/** The session an imported file stands in for: a viewer with no functions, so nothing can call a driver. */
function importedSession(facts: ImportedFacts): Session {
  return {
    sessionId: `file:${facts.name}`,
    role: 'viewer',
    backend: 'file',
    host: { provenance: 'modeled', hostname: facts.name, kernelVersion: '', hostPageSize: 4096 },
    devices: Array.from({ length: facts.devices }, (_, id) => ({ id, profile: facts.profile, socName: facts.profile, capabilities: [] })),
    functions: new Set(),
    limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
  };
}

export const createImportSlice: StateCreator<ImportSlice & ReplicaSlice & SessionSlice & SelectionSlice, [], [], ImportSlice> = (
  set,
  get,
) => ({
  imported: undefined,
  importedBlocks: undefined,
  importedStacks: undefined,
  importing: undefined,
  importProblem: undefined,
  profilerCsv: undefined,
  setProfilerCsv: (profilerCsv) => set({ profilerCsv, importing: undefined, importProblem: undefined }),
  agentFile: undefined,
  setAgentFile: (agentFile) => set({ agentFile }),
  exporting: undefined,
  exportProblem: undefined,
  exportTooLarge: undefined,
  setExportTooLarge: (exportTooLarge) => set({ exportTooLarge }),
  stackFilter: '',
  setStackFilter: (stackFilter) => set({ stackFilter }),
  setExporting: (exporting) => set({ exporting }),
  setExportProblem: (exportProblem) => set({ exportProblem, exporting: undefined }),
  setImporting: (importing) => set({ importing }),
  setImportProblem: (importProblem) => set({ importProblem, importing: undefined }),
  loadImported: ({ facts, initial, events: packed, blocks, stacks }, options = {}) => {
    const events = unpackEvents(packed);
    // The whole file stays reachable by time travel: no folding of old events.
    const timeline = new Timeline(initial, {
      keep: Math.max(DEFAULT_HISTORY.keep, events.length),
      slack: DEFAULT_HISTORY.slack,
      ...(events.length > RECORDING_KEYFRAMES * CHECKPOINT_EVERY ? { keyframeEvery: Math.ceil(events.length / RECORDING_KEYFRAMES) } : {}),
    });
    timeline.appendRecording(events);
    set({
      imported: facts,
      // The worker's columns, read in place: sorted there, no block is an object until it is shown.
      importedBlocks: BlockIndex.from(blocks),
      importedStacks: stacks,
      importing: options.reading === true ? get().importing : undefined,
      importProblem: undefined,
      session: importedSession(facts),
      timeline,
      version: get().version + 1,
      cursor: 'live',
      compare: undefined,
      playing: false,
      // Ids of the session before name other objects (or none) in the file's.
      selection: undefined,
      hostResets: get().hostResets + 1,
    });
  },
});

export const selectImported = (state: ImportSlice): ImportedFacts | undefined => state.imported;
export const selectImporting = (state: ImportSlice): ImportProgress | undefined => state.importing;
export const selectImportProblem = (state: ImportSlice): ImportProblem | undefined => state.importProblem;
export const selectAgentFile = (state: ImportSlice): string | undefined => state.agentFile;
