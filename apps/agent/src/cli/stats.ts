import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import {
  BUILTIN_PROFILE_NAMES,
  CsvLoader,
  DEFAULT_PROFILE,
  type DeviceProfile,
  FormatError,
  findProfile,
  formatBytes,
  formatInteger,
  HEADER_BYTES,
  isSqliteFile,
  type MemoryFile,
  memoryCsvKind,
  openMemoryFile,
  SnapshotLoader,
  type SnapshotStats,
  snapshotStats,
  type TraceSummary,
} from '@pagelens/core';
import { loadSqlite } from './sqlite.ts';

/** `pagelens stats FILE [--json]`: a summary of an imported memory file for scripts and CI. */
export interface StatsOptions {
  readonly json: boolean;
  readonly profile: string | undefined;
  readonly pageSize1g: boolean;
}

export interface StatsIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

const CHUNK = 4 * 1024 * 1024;

/**
 * The profile and the file a file command (`stats`, `export`) works on, or the exit code after saying
 * on `io.err` what was wrong: 2 for an unknown profile, 1 for a file it cannot read or parse.
 */
export async function openForCommand(
  command: string,
  path: string,
  profileName: string | undefined,
  io: StatsIo,
): Promise<{ readonly file: MemoryFile; readonly profile: DeviceProfile; readonly summary: TraceSummary | undefined } | number> {
  const profile = profileName === undefined ? DEFAULT_PROFILE : findProfile(profileName);
  if (profile === undefined) {
    io.err(`pagelens ${command}: unknown profile "${profileName}"; use ${BUILTIN_PROFILE_NAMES.join(', ')}\n`);
    return 2;
  }
  try {
    // stats needs only the trace's counts: it streams past (bounded memory for any length); export keeps it.
    const loaded = await load(path, command === 'stats');
    return { ...loaded, profile };
  } catch (error) {
    if (error instanceof FormatError) {
      io.err(`pagelens ${command}: ${path}: ${error.message}\n`);
      return 1;
    }
    if (error instanceof Error && 'code' in error) {
      io.err(`pagelens ${command}: cannot read ${path}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Every chunk of the file from `fd`, 4 MiB at a time, each a copy the reader may keep (an item may span chunks). */
function eachChunk(fd: number, take: (chunk: Uint8Array) => void): void {
  const buffer = new Uint8Array(CHUNK);
  for (let position = 0; ; ) {
    const read = readSync(fd, buffer, 0, CHUNK, position);
    if (read === 0) break;
    take(buffer.slice(0, read));
    position += read;
  }
}

/**
 * A pickle is streamed in 4 MiB chunks (memory bounded by what the snapshot keeps), and so is a
 * CSV (an msMemScope dump goes into the model row by row); msMemScope's .db is read whole, as
 * SQLite (sql.js, loaded only then) reads it from memory.
 */
export async function load(path: string, summarizeTrace = false): Promise<{ file: MemoryFile; summary: TraceSummary | undefined }> {
  const fd = openSync(path, 'r');
  try {
    const head = new Uint8Array(HEADER_BYTES);
    const size = statSync(path).size;
    const got = readSync(fd, head, 0, head.length, 0);
    if (got >= 1 && head[0] === 0x80) {
      const loader = new SnapshotLoader({ totalBytes: size, summarizeTrace });
      eachChunk(fd, (chunk) => loader.push(chunk));
      const file = loader.finish();
      return { file, summary: loader.traceSummary };
    }
    // One of the Ascend CSVs by its name or header (anything else is read whole below, for openMemoryFile's own words).
    if (!isSqliteFile(head.subarray(0, got)) && memoryCsvKind(path, head.subarray(0, got)) !== undefined) {
      const loader = new CsvLoader(path);
      eachChunk(fd, (chunk) => loader.push(chunk));
      return { file: loader.finish(), summary: undefined };
    }
  } finally {
    closeSync(fd);
  }
  const bytes = new Uint8Array(readFileSync(path));
  const result = openMemoryFile(bytes, path, isSqliteFile(bytes) ? await loadSqlite() : undefined);
  if (!result.ok) throw new FormatError(result.message, result.at);
  return { file: result.file, summary: undefined };
}

/** What `--json` prints for CSV files (and the .db): per device, rows and their kinds. */
export interface TableStats {
  readonly format: string;
  readonly devices: readonly {
    readonly device: number | null;
    readonly rows: number;
    readonly actions: Readonly<Record<string, number>>;
  }[];
}

function tableStats(file: Exclude<MemoryFile, { kind: 'snapshot' }>): TableStats {
  const devices = new Map<number | null, { rows: number; actions: Record<string, number> }>();
  const count = (device: number | null | undefined, action: string, rows = 1): void => {
    const key = device ?? null;
    const entry = devices.get(key) ?? { rows: 0, actions: {} };
    entry.rows += rows;
    entry.actions[action] = (entry.actions[action] ?? 0) + rows;
    devices.set(key, entry);
  };
  switch (file.kind) {
    case 'memscope_dump':
      // Counted as the rows streamed past: the dump keeps the model, not its rows.
      for (const [device, events] of file.byDevice) for (const [event, rows] of Object.entries(events)) count(device, event, rows);
      break;
    case 'memory_record':
      for (const row of file.rows) count(row.device, row.component);
      break;
    case 'operator_memory':
      for (const row of file.rows) count(row.device, row.releaseTimeUs === undefined ? 'unreleased' : 'released');
      break;
  }
  return {
    format: file.kind,
    devices: [...devices.entries()].sort(([a], [b]) => (a ?? -1) - (b ?? -1)).map(([device, entry]) => ({ device, ...entry })),
  };
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '),
    )
    .join('\n');
}

function human(path: string, stats: SnapshotStats, profile: DeviceProfile): string {
  return `${[`${path}: ${stats.format} memory snapshot; ${stats.formatEvidence}`, '', ...snapshotTables(stats, profile)].join('\n')}\n`;
}

/** The segments, bytes and trace actions per device, then the pages they take. */
function snapshotTables(stats: SnapshotStats, profile: DeviceProfile): string[] {
  const lines: string[] = [];
  lines.push(
    table([
      ['device', 'segments', 'reserved', 'allocated', 'active', 'trace events'],
      ...stats.devices.map((d) => [
        String(d.device),
        formatInteger(d.segments),
        formatBytes(d.reservedBytes),
        formatBytes(d.allocatedBytes),
        formatBytes(d.activeBytes),
        formatInteger(d.traceEvents),
      ]),
    ]),
  );
  for (const d of stats.devices) {
    const actions = Object.entries(d.actions).filter(([, n]) => n > 0);
    if (actions.length > 0)
      lines.push(`  device ${d.device} actions: ${actions.map(([action, n]) => `${action} ${formatInteger(n)}`).join(', ')}`);
  }
  if (stats.host !== undefined) {
    const host = stats.host;
    const actions = Object.entries(host.actions).filter(([, n]) => n > 0);
    lines.push(
      `  pinned host: ${formatInteger(host.segments)} segments, ${formatBytes(host.reservedBytes)} at the end; ` +
        `${formatInteger(host.traceEvents)} trace events${actions.length > 0 ? ` (${actions.map(([action, n]) => `${action} ${formatInteger(n)}`).join(', ')})` : ''}`,
    );
  }
  const normal = formatBytes(profile.normalPageSize);
  const recorded = stats.pages.devices.some((d) => d.recordedSegments > 0);
  lines.push(
    '',
    `pages (${recorded ? '' : 'modeled: '}${stats.pages.basis}; profile ${stats.pages.profile}${stats.pages.pageSize1g ? ', page_size:1g' : ''})`,
  );
  lines.push(
    table([
      ['device', `normal ${normal}`, 'huge 2 MiB', 'giant 1 GiB', 'waste', 'PTEs', 'TLB coverage (assumed TLB)'],
      ...stats.pages.devices.map((d) => [
        String(d.device),
        formatInteger(d.byClass.normal.pages),
        formatInteger(d.byClass.huge.pages),
        formatInteger(d.byClass.giant.pages),
        formatBytes(d.wasteBytes),
        formatInteger(d.ptes),
        `${(d.tlbCoverage * 100).toFixed(1)}%`,
      ]),
    ]),
  );
  return lines;
}

/** Runs the subcommand; answers the exit code (0, or 1 for a file it cannot read). */
export async function runStats(path: string, options: StatsOptions, io: StatsIo): Promise<number> {
  const opened = await openForCommand('stats', path, options.profile, io);
  if (typeof opened === 'number') return opened;
  const { file, profile, summary } = opened;
  if (file.kind !== 'snapshot') {
    const rowsStats = tableStats(file);
    // An msMemScope dump is also the snapshot it becomes: its HAL allocations as segments, with their pages.
    const asSnapshot =
      file.kind === 'memscope_dump' ? snapshotStats(file.snapshot, { profile, pageSize1g: options.pageSize1g }) : undefined;
    // msMemScope's physical handles (alloc_type create): their Ptr is the handle, not a device address.
    const halHandles = file.kind === 'memscope_dump' ? file.halHandles : undefined;
    if (options.json)
      io.out(`${JSON.stringify(asSnapshot === undefined ? rowsStats : { ...rowsStats, halHandles, asSnapshot }, null, 2)}\n`);
    else {
      const rows = rowsStats.devices.map((d) => [
        d.device === null ? '-' : String(d.device),
        formatInteger(d.rows),
        Object.entries(d.actions)
          .map(([k, n]) => `${k} ${n}`)
          .join(', '),
      ]);
      const lines = [`${path}: ${rowsStats.format}`, table([['device', 'rows', 'kinds'], ...rows])];
      if (asSnapshot !== undefined) lines.push('', `as a snapshot: ${asSnapshot.formatEvidence}`, ...snapshotTables(asSnapshot, profile));
      if ((halHandles ?? 0) > 0)
        lines.push(
          `  ${formatInteger(halHandles ?? 0)} HAL allocations are physical handles (alloc_type create): their Ptr is the handle, not a device address`,
        );
      io.out(`${lines.join('\n')}\n`);
    }
    return 0;
  }
  const stats = snapshotStats(file, { profile, pageSize1g: options.pageSize1g }, summary);
  io.out(options.json ? `${JSON.stringify(stats, null, 2)}\n` : human(path, stats, profile));
  return 0;
}
