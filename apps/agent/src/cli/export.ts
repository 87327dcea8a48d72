import { closeSync, openSync, writeSync } from 'node:fs';
import { FormatError, fileTraceJson, perfettoNeedsNative, type TraceJson } from '@pagelens/core';
import { openForCommand, type StatsIo } from './stats.ts';

/** `pagelens export FILE --perfetto OUT.json`: a snapshot, msMemScope dump or memory_record.csv as Chrome trace-event JSON, which Perfetto opens. */
export interface ExportOptions {
  /** Where the JSON goes; '-' for stdout. */
  readonly perfetto: string;
  readonly profile: string | undefined;
  readonly pageSize1g: boolean;
}

/** What the export says once written: its size, and where to open it (a native trace_processor past what a browser tab holds). */
export function exportedMessage(out: string, events: number, bytes: number): string {
  const what = `${out}: ${events.toLocaleString('en-US')} trace events, ${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
  if (!perfettoNeedsNative(bytes)) return `${what}; open it at https://ui.perfetto.dev\n`;
  return (
    `${what}; more than ui.perfetto.dev can hold in a browser tab (about 2 GB of memory for the trace as it loads it). ` +
    `Run \`trace_processor --httpd ${out}\` (https://get.perfetto.dev/trace_processor), then open https://ui.perfetto.dev, which uses it\n`
  );
}

/** Runs the subcommand; answers the exit code (0; 1 for a file it cannot read or write; 2 for a bad flag). */
export async function runExport(path: string, options: ExportOptions, io: StatsIo): Promise<number> {
  const opened = await openForCommand('export', path, options.profile, io);
  if (typeof opened === 'number') return opened;
  const { file, profile } = opened;
  // Written as it is made: the events of a long trace are never held at once.
  let trace: TraceJson;
  try {
    trace = fileTraceJson(file, path, { profile, pageSize1g: options.pageSize1g });
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    io.err(`pagelens export: ${error.message}\n`);
    return 1;
  }
  if (options.perfetto === '-') {
    for (const part of trace.parts) io.out(part);
    return 0;
  }
  let fd: number;
  try {
    fd = openSync(options.perfetto, 'w');
  } catch (error) {
    io.err(`pagelens export: cannot write ${options.perfetto}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  let written = 0;
  try {
    for (const part of trace.parts) written += writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  io.err(exportedMessage(options.perfetto, trace.events, written));
  return 0;
}
