import type { ImportReply, ImportRequest, ImportSource, ModelOptions } from '../model/import/import-protocol.ts';
import type { AppStore } from '../store/app-store.ts';

/** The worker as the importer uses it (a real Worker in the app, a fake in tests). */
export interface ImportWorker {
  onmessage: ((event: MessageEvent<ImportReply>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
  postMessage(message: ImportRequest): void;
  terminate(): void;
}

/** A source as it was opened: what to read again, and with which modelling options. */
export interface LoadedSource {
  readonly source: ImportSource;
  readonly name: string;
  /** Its size in bytes as first shown (0 when the agent serves it: the worker learns it). */
  readonly size: number;
  readonly options: ModelOptions;
}

/**
 * Opens files in a worker and hands the result to the store; lives outside the store, like the
 * agent client. One file at a time: opening another, or Cancel, terminates the worker, so a
 * cancelled parse stops at once and nothing it made reaches the page.
 */
export class FileImporter {
  readonly #store: AppStore;
  readonly #makeWorker: () => ImportWorker;
  readonly #onLoaded: () => void;
  #worker: ImportWorker | undefined;
  #pending: LoadedSource | undefined;
  #loaded: LoadedSource | undefined;
  #profiler: LoadedSource | undefined;

  constructor(store: AppStore, makeWorker: () => ImportWorker, onLoaded: () => void) {
    this.#store = store;
    this.#makeWorker = makeWorker;
    this.#onLoaded = onLoaded;
  }

  open(file: File): void {
    this.openSource({ file }, { name: file.name, size: file.size });
  }

  /** Any source the worker reads (a File, or the agent's file for pagelens open), with the name and size shown until the worker knows better. */
  openSource(source: ImportSource, file: { name: string; size: number }, options: ModelOptions = {}): void {
    this.#stop();
    this.#pending = { source, name: file.name, size: file.size, options };
    const store = this.#store.getState();
    store.setImportProblem(undefined);
    store.setImporting({ name: file.name, bytesRead: 0, total: file.size });
    const worker = this.#makeWorker();
    this.#worker = worker;
    worker.onmessage = (event) => {
      if (this.#worker !== worker) return;
      this.#receive(file, event.data);
    };
    worker.onerror = (event) => {
      if (this.#worker !== worker) return;
      this.#stop();
      this.#store.getState().setImportProblem({ name: file.name, kind: 'format', message: event.message, at: undefined });
    };
    worker.postMessage({ ...source, ...options });
  }

  /**
   * Reads the file on show again, modeled another way (another profile, or page_size:1g): the
   * what-if of the same job on other pages. Does nothing when no file is shown.
   */
  remodel(options: ModelOptions): void {
    const loaded = this.loaded;
    if (loaded === undefined) return;
    this.openSource(loaded.source, { name: loaded.name, size: loaded.size }, { ...loaded.options, ...options });
  }

  /** Where the file the explorer shows came from, so it can be read again (the Perfetto export); undefined for a live session. */
  get loaded(): LoadedSource | undefined {
    return this.#store.getState().imported === undefined ? undefined : this.#loaded;
  }

  /** Where the profiler CSV on show came from (its own Perfetto export); undefined when none is shown. */
  get profilerSource(): LoadedSource | undefined {
    return this.#store.getState().profilerCsv === undefined ? undefined : this.#profiler;
  }

  cancel(): void {
    this.#stop();
    this.#store.getState().setImporting(undefined);
  }

  #stop(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
  }

  #receive(file: { name: string }, reply: ImportReply): void {
    const store = this.#store.getState();
    switch (reply.type) {
      case 'progress':
        store.setImporting({ name: file.name, bytesRead: reply.bytesRead, total: reply.total });
        return;
      case 'error':
        this.#stop();
        store.setImportProblem({ name: file.name, kind: 'format', message: reply.message, at: reply.at });
        return;
      case 'profiler-csv':
        this.#stop();
        this.#profiler = this.#pending;
        store.setProfilerCsv({ name: reply.name, bytes: reply.bytes, table: reply.table });
        return;
      case 'perfetto':
        return;
      case 'preview':
        // The segments-first view: shown at once, while the worker reads on (progress stays up).
        this.#loaded = this.#pending;
        this.#onLoaded();
        store.loadImported(reply, { reading: true });
        return;
      case 'done':
        this.#stop();
        this.#loaded = this.#pending;
        this.#onLoaded();
        store.loadImported(reply);
        return;
    }
  }
}
