import { chromeTraceJson, modelToChromeTrace, perfettoNeedsNative } from '@pagelens/core';
import { jsonBlob } from '../model/import/json-blob.ts';
import type { AppStore } from '../store/app-store.ts';
import type { FileImporter, ImportWorker } from './file-importer.ts';

/** Hands a finished JSON to the person: a download in the app, a record in tests. */
export type Download = (json: Blob, fileName: string) => void;

/** The browser's download: an object URL on a link clicked once, revoked after. */
export const browserDownload: Download = (json, fileName) => {
  const url = URL.createObjectURL(json);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
};

/** `job.pickle` → `job.perfetto.json`. */
export function perfettoName(name: string): string {
  const base = name.replace(/\.(pickle|pkl|csv)$/i, '');
  return `${base === '' ? 'pagelens' : base}.perfetto.json`;
}

/**
 * "Export to Perfetto": Chrome trace-event JSON of what the explorer shows.
 * - An imported file is read again in a worker and exported from the snapshot itself
 *   (core formats/perfetto.ts: the allocator's counters, each trace entry with its stack), the
 *   same as `pagelens export`.
 * - A live session is exported from its events on this thread (formats/perfetto-model.ts).
 */
export class PerfettoExporter {
  readonly #store: AppStore;
  readonly #makeWorker: () => ImportWorker;
  readonly #importer: FileImporter;
  readonly #download: Download;
  #worker: ImportWorker | undefined;

  constructor(store: AppStore, makeWorker: () => ImportWorker, importer: FileImporter, download: Download = browserDownload) {
    this.#store = store;
    this.#makeWorker = makeWorker;
    this.#importer = importer;
    this.#download = download;
  }

  /** Downloads the JSON, saying so when it is more than a browser tab's Perfetto holds. */
  #handOver(json: Blob, fileName: string): void {
    this.#download(json, fileName);
    this.#store.getState().setExportTooLarge(perfettoNeedsNative(json.size) ? { name: fileName, bytes: json.size } : undefined);
  }

  export(): void {
    const state = this.#store.getState();
    if (state.exporting !== undefined) return;
    state.setExportProblem(undefined);
    state.setExportTooLarge(undefined);
    const loaded = this.#importer.loaded;
    if (loaded !== undefined) {
      this.#exportFile(loaded.source, loaded.name, loaded.options);
      return;
    }
    const { timeline, session } = state;
    if (timeline === undefined) return;
    const trace = modelToChromeTrace(
      timeline.stateAt(timeline.firstSeq),
      timeline.events,
      `a ${session?.backend ?? 'sim'} session (${timeline.events.length} events from seq ${timeline.firstSeq})`,
    );
    this.#handOver(jsonBlob(chromeTraceJson(trace)), perfettoName(`pagelens-session-${session?.backend ?? 'sim'}`));
  }

  /** The profiler CSV on show (memory_record.csv) as counter tracks, read again in a worker like a file. */
  exportProfilerCsv(): void {
    const state = this.#store.getState();
    const loaded = this.#importer.profilerSource;
    if (state.exporting !== undefined || loaded === undefined) return;
    state.setExportProblem(undefined);
    state.setExportTooLarge(undefined);
    this.#exportFile(loaded.source, loaded.name, loaded.options);
  }

  cancel(): void {
    this.#worker?.terminate();
    this.#worker = undefined;
    this.#store.getState().setExporting(undefined);
  }

  #exportFile(source: Parameters<FileImporter['openSource']>[0], name: string, options: Parameters<FileImporter['openSource']>[2]): void {
    const store = this.#store.getState();
    store.setExporting({ name, bytesRead: 0, total: 'file' in source ? source.file.size : 0 });
    const worker = this.#makeWorker();
    this.#worker = worker;
    const stop = (): void => {
      worker.terminate();
      if (this.#worker === worker) this.#worker = undefined;
    };
    worker.onmessage = (event) => {
      if (this.#worker !== worker) return;
      const reply = event.data;
      const now = this.#store.getState();
      switch (reply.type) {
        case 'progress':
          now.setExporting({ name, bytesRead: reply.bytesRead, total: reply.total });
          return;
        case 'perfetto':
          stop();
          now.setExporting(undefined);
          this.#handOver(reply.json, perfettoName(name));
          return;
        case 'error':
          stop();
          now.setExportProblem(reply.message);
          return;
        default:
          stop();
          now.setExportProblem(`${name} is not a snapshot this export reads`);
      }
    };
    worker.onerror = (event) => {
      if (this.#worker !== worker) return;
      stop();
      this.#store.getState().setExportProblem(event.message);
    };
    worker.postMessage({ ...source, ...options, purpose: 'perfetto' });
  }
}
