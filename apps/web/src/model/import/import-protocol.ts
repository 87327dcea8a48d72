import type {
  BlockParts,
  MemoryRecord,
  MemScopeUnplaced,
  OperatorMemory,
  PackedEvents,
  PinnedHostFacts,
  Snapshot,
  StackTable,
  TraceSummary,
} from '@pagelens/core';

/**
 * Messages between the page and the import worker (import-worker.ts): the page sends a File; the
 * worker reads it in chunks, says how far it got, and answers with the session or the reader's message.
 */
export type ImportRequest = ImportSource & {
  /** Device profile name the pages are modeled on (default Ascend910B2). */
  readonly profile?: string;
  /** PYTORCH_NPU_ALLOC_CONF=page_size:1g, which a snapshot does not record. */
  readonly pageSize1g?: boolean;
  /** 'session' (default): the recorded session; 'perfetto': the file as Chrome trace-event JSON. */
  readonly purpose?: 'session' | 'perfetto';
};

/** How an opened file's pages are modeled: the device profile, and torch_npu's `page_size:1g`. */
export type ModelOptions = Pick<ImportRequest, 'profile' | 'pageSize1g'>;

/**
 * Where the bytes come from: a File the person chose or dropped, or the one file `pagelens open`
 * serves (GET `url` with the session token), streamed the same way.
 */
export type ImportSource = { readonly file: File } | { readonly url: string; readonly token: string; readonly name: string };

/** What the page keeps of an imported file besides its events. */
export interface ImportedFacts {
  readonly name: string;
  readonly bytes: number;
  /** 'msmemscope': a memscope_dump CSV, read as a snapshot's trace (core formats/memscope-session.ts). */
  readonly format: 'torch_npu' | 'pytorch_cuda' | 'unknown' | 'msmemscope';
  readonly formatEvidence: string;
  readonly profile: string;
  readonly pageSize1g: boolean;
  readonly timeBasis: 'time_us' | 'entry order';
  readonly traceEntries: number;
  readonly segments: number;
  readonly inconsistent: number;
  readonly finalMismatch: number;
  readonly devices: number;
  /**
   * True for the segments-first view: the file's final state (its segments) shown while the trace
   * is still being read — no trace entries yet, so no time travel over the job. A `done` replaces it.
   */
  readonly segmentsOnly?: boolean;
  /**
   * A trace too long to keep (import-snapshot.ts KEEP_TRACE_ENTRIES): the session is
   * its final state, and this is what the trace held, counted as it streamed past.
   */
  readonly traceSummary?: TraceSummary;
  /** msMemScope dumps: the rows the model did not place, by why (MEMSCOPE_UNPLACED), with the first one's line. */
  readonly unplaced?: readonly { readonly reason: MemScopeUnplaced; readonly count: number; readonly firstLine: number }[];
  /** What `firstLine` counts: a CSV's lines, or the rows of a .db's table. */
  readonly unplacedIn?: 'line' | 'row';
  /**
   * The snapshot's `allocator_settings` as recorded (PYTORCH_CUDA_ALLOC_CONF, expandable_segments, …),
   * each value as text; undefined when the file has none (torch_npu writes none).
   */
  readonly allocatorSettings?: readonly (readonly [string, string])[];
  /** The devices on which the job used expandable segments (core ImportedSession.expandableDevices): their peak's what-if says so. */
  readonly expandableDevices?: readonly number[];
  /** Pinned host memory the file recorded (core ImportedSession.pinnedHost): shown in Host & copies. */
  readonly pinnedHost?: PinnedHostFacts;
  /** msMemScope dumps: HAL allocations whose page size the file recorded (page_type), and those whose pages are modeled. */
  readonly halPages?: { readonly recorded: number; readonly modeled: number };
  /** msMemScope dumps: HAL rows that are physical handles (alloc_type create; core MemScopeConversion.halHandles). */
  readonly halHandles?: number;
}

/** A profiler CSV with no addresses: shown as it is (counters over time, or operators), not as a session. */
export type ProfilerTable = MemoryRecord | OperatorMemory;

/** An imported file as a recorded session, as the page loads it (store/import-slice.ts loadImported). */
export interface SessionPayload {
  readonly facts: ImportedFacts;
  readonly initial: Snapshot;
  /** The events, the trace entries' calls as transferred columns (core trace-calls.ts): a clone of a million call objects held ~350 MB twice over. */
  readonly events: PackedEvents;
  /** The blocks, as columns (BlockIndex.parts); each one's `stack` is its id in `stacks`. */
  readonly blocks: BlockParts;
  readonly stacks: StackTable;
}

export type ImportReply =
  | { readonly type: 'progress'; readonly bytesRead: number; readonly total: number }
  /** The whole file. */
  | ({ readonly type: 'done' } & SessionPayload)
  /** The segments-first view (facts.segmentsOnly): the final state while the trace is read; progress and a `done` follow. */
  | ({ readonly type: 'preview' } & SessionPayload)
  /** purpose 'perfetto': the JSON (perfetto.ts), built in the worker, and how many trace events it holds. */
  | { readonly type: 'perfetto'; readonly json: Blob; readonly events: number }
  /** The reader's own message (English, from core): what was expected and where it broke. */
  | { readonly type: 'error'; readonly message: string; readonly at: number | undefined }
  /** torch_npu profiler memory_record.csv / operator_memory.csv: a table, not a session (no addresses to place). */
  | { readonly type: 'profiler-csv'; readonly name: string; readonly bytes: number; readonly table: ProfilerTable };
