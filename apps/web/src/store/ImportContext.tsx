import { createContext, type ReactNode, useContext } from 'react';
import type { ModelOptions } from '../model/import/import-protocol.ts';

/** What components may ask of the file importer (net/file-importer.ts), which stays outside React. */
export interface FileActions {
  open(file: File): void;
  cancel(): void;
  /** Opens the file on show again with its pages modeled another way (FileImporter.remodel). */
  remodel(options: ModelOptions): void;
  /** Downloads what the explorer shows as Chrome trace-event JSON (net/perfetto-exporter.ts). */
  exportPerfetto(): void;
  /** The profiler CSV on show (memory_record.csv) as Perfetto counter tracks. */
  exportProfilerCsv(): void;
  cancelExport(): void;
}

const ImportContext = createContext<FileActions | null>(null);

export function ImportProvider({ actions, children }: { actions: FileActions; children: ReactNode }) {
  return <ImportContext.Provider value={actions}>{children}</ImportContext.Provider>;
}

export function useFileActions(): FileActions {
  const actions = useContext(ImportContext);
  if (actions === null) throw new Error('useFileActions must be used inside <ImportProvider>');
  return actions;
}
