import { errorName } from '@pagelens/core';
import type { Leak } from './leaks.ts';
import { describeStatus, type ExitStatus, type ProgramEnd } from './program-end.ts';
import type { CallSite } from './run-record.ts';
import type { TraceSession } from './run-server.ts';
import { resolveSites } from './sites.ts';
import { TRACE_REFUSALS } from './trace-record.ts';

/*
 * The `pagelens run --check` summary of one program: calls per function, ACL errors with their
 * source lines (the call's index when the program has no debug info), functions not modeled, and
 * leaks, each with the call that made it. Like a sanitizer's leak report, for ACL.
 */

function where(site: CallSite, lines: ReadonlyMap<number, string>): string {
  const line = lines.get(site.site);
  return line === undefined ? `call #${site.index}` : `call #${site.index} at ${line}`;
}

function leakText(leak: Leak, lines: ReadonlyMap<number, string>): string {
  const size = leak.size === undefined ? '' : ` (${leak.size.toLocaleString('en-US')} B)`;
  const made =
    leak.madeBy === undefined ? 'made by a call PageLens did not see' : `made by ${leak.madeBy.fn}, ${where(leak.madeBy, lines)}`;
  return `  ${leak.kind} ${leak.value}${size}, ${made}`;
}

export function formatSummary(end: ProgramEnd): string[] {
  const { record, info } = end.session.bridge;
  const sites = [
    ...record.errors,
    ...record.releasedAtReset.flatMap((item) => (item.madeBy === undefined ? [item.releasedBy] : [item.madeBy, item.releasedBy])),
    ...record.notModeledCalls.values(),
    ...end.leaks.flatMap((leak) => (leak.madeBy === undefined ? [] : [leak.madeBy])),
  ];
  const lines = resolveSites(
    end.session.maps,
    sites.map((site) => site.site),
  );
  const out = [`pagelens --check: ${info.argv.join(' ')} (pid ${info.pid}) ${describeStatus(end.status)}`];
  out.push(`ACL calls: ${record.total}`);
  for (const [fn, count] of [...record.calls].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) out.push(`  ${fn} ${count}`);
  out.push(`ACL errors: ${record.errors.length === 0 ? 'none' : record.errors.length}`);
  for (const error of record.errors) {
    out.push(
      `  ${error.fn} → ${errorName(error.ret)} (${error.ret}), ${where(error, lines)}${error.message === undefined ? '' : `: ${error.message}`}`,
    );
  }
  out.push(`Not modeled (answered 207000): ${record.notModeledCalls.size === 0 ? 'none' : record.notModeledCalls.size}`);
  for (const site of record.notModeledCalls.values()) out.push(`  ${site.fn}, first ${where(site, lines)}`);
  out.push(`Leaks at exit: ${end.leaks.length === 0 ? 'none' : end.leaks.length}`);
  for (const leak of end.leaks) out.push(leakText(leak, lines));
  // Not leaks: the runtime gave them back at the reset (LT-2). But the program skipped LT-3's order
  // (free, destroy, then reset), which a long-running process that resets late pays for.
  if (record.releasedAtReset.length > 0) {
    out.push(`Released by a device reset, never released by the program (LT-2, LT-3): ${record.releasedAtReset.length}`);
    for (const item of record.releasedAtReset)
      out.push(`${leakText(item, lines)}; released by ${item.releasedBy.fn}, ${where(item.releasedBy, lines)}`);
  }
  return out;
}

/** The exit status of `pagelens run --check`: the program's own failure first, then 3 for leaks. */
export const LEAK_EXIT_CODE = 3;

export function checkExitCode(programCode: number, ends: readonly ProgramEnd[]): number {
  if (programCode !== 0) return programCode;
  return ends.some((end) => end.leaks.length > 0) ? LEAK_EXIT_CODE : 0;
}

/** The --trace --check summary: what the real library answered, as observed. */
export function formatTraceSummary(session: TraceSession, status: ExitStatus | undefined): string[] {
  const { record } = session;
  const errors = record.errors();
  const lines = resolveSites(
    session.maps,
    errors.map((call) => call.site),
  );
  const out = [`pagelens --trace --check: ${session.argv.join(' ')} (pid ${session.pid}) ${describeStatus(status)}`];
  out.push(`ACL calls observed: ${record.total} from ${record.threads.size} thread${record.threads.size === 1 ? '' : 's'}`);
  for (const [fn, count] of [...record.counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) out.push(`  ${fn} ${count}`);
  out.push(`ACL errors: ${record.errorCount === 0 ? 'none' : record.errorCount}`);
  for (const call of errors) {
    const line = lines.get(call.site);
    out.push(`  ${call.fn} → ${errorName(call.ret)} (${call.ret}), call #${call.index}${line === undefined ? '' : ` at ${line}`}`);
  }
  if (record.errorCount > errors.length) out.push(`  … and ${record.errorCount - errors.length} more, not listed`);
  if (record.malformed > 0) {
    out.push(`Refused records: ${record.malformed}`);
    for (const [code, count] of record.refused) out.push(`  ${code} ${count}: ${TRACE_REFUSALS[code]}`);
  }
  out.push(
    record.dropped === undefined
      ? 'Dropped records: unknown (the program ended before its interposer could report)'
      : `Dropped records: ${record.dropped}`,
  );
  return out;
}
