import { closeSync, openSync, writeSync } from 'node:fs';
import { chromeTraceJson, DEFAULT_PROFILE, FormatError, findProfile, type MemoryFile, toChromeTrace } from '@pagelens/core';
import { load, type StatsIo } from './stats.ts';

/** `pagelens export FILE --perfetto OUT.json`: a snapshot as Chrome trace-event JSON, which Perfetto opens. */
export interface ExportOptions {
  /** Where the JSON goes; '-' for stdout. */
  readonly perfetto: string;
  readonly profile: string | undefined;
  readonly pageSize1g: boolean;
}

/** Runs the subcommand; answers the exit code (0; 1 for a file it cannot read or write; 2 for a bad flag). */
export function runExport(path: string, options: ExportOptions, io: StatsIo): number {
  const profile = options.profile === undefined ? DEFAULT_PROFILE : findProfile(options.profile);
  if (profile === undefined) {
    io.err(`pagelens export: unknown profile "${options.profile}"; use Ascend910B2, Ascend910B4, Ascend910_9391 or Ascend310P3\n`);
    return 2;
  }
  let file: MemoryFile;
  try {
    file = load(path);
  } catch (error) {
    if (error instanceof FormatError) {
      io.err(`pagelens export: ${path}: ${error.message}\n`);
      return 1;
    }
    if (error instanceof Error && 'code' in error) {
      io.err(`pagelens export: cannot read ${path}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (file.kind !== 'snapshot') {
    io.err(`pagelens export: ${path} is a ${file.kind} CSV; the Perfetto export reads torch_npu / PyTorch snapshot pickles\n`);
    return 1;
  }
  const trace = toChromeTrace(file, { profile, pageSize1g: options.pageSize1g });
  if (options.perfetto === '-') {
    for (const part of chromeTraceJson(trace)) io.out(part);
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
    for (const part of chromeTraceJson(trace)) writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  io.err(`${options.perfetto}: ${trace.traceEvents.length.toLocaleString('en-US')} trace events; open it at https://ui.perfetto.dev\n`);
  return 0;
}
