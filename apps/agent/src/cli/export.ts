import { closeSync, openSync, writeSync } from 'node:fs';
import { FormatError, fileTraceJson, type TraceJson } from '@pagelens/core';
import { openForCommand, type StatsIo } from './stats.ts';

/** `pagelens export FILE --perfetto OUT.json`: a snapshot, msMemScope dump or memory_record.csv as Chrome trace-event JSON, which Perfetto opens. */
export interface ExportOptions {
  /** Where the JSON goes; '-' for stdout. */
  readonly perfetto: string;
  readonly profile: string | undefined;
  readonly pageSize1g: boolean;
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
  try {
    for (const part of trace.parts) writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  io.err(`${options.perfetto}: ${trace.events.toLocaleString('en-US')} trace events; open it at https://ui.perfetto.dev\n`);
  return 0;
}
