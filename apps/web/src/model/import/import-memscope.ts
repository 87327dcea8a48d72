// An msMemScope dump, from its CSV or its .db (import-csv.ts), as the worker's answer: a recorded
// session through the snapshot importer (its Perfetto export is import-csv.ts's, core fileTraceJson).
import { type DeviceProfile, importSnapshot, MEMSCOPE_UNPLACED, type MemScopeDump } from '@pagelens/core';
import type { ImportedFacts, ImportReply, ImportRequest } from './import-protocol.ts';
import { sessionReply } from './session-reply.ts';

export type Reply = (message: ImportReply, transfer?: Transferable[]) => void;

/** The file as read: its name, its size in bytes, and whether its rows are CSV lines or a .db table's rows. */
export interface ReadFile {
  readonly name: string;
  readonly bytes: number;
  readonly rowsAre: 'line' | 'row';
}

/** `converted`: the dump as the reader turned it into the model, row by row (core memscope-session.ts). */
export function replyMemScope(converted: MemScopeDump, file: ReadFile, request: ImportRequest, profile: DeviceProfile, reply: Reply): void {
  const pageSize1g = request.pageSize1g ?? false;
  const { snapshot } = converted;
  const session = importSnapshot(snapshot, { profile, pageSize1g, name: file.name });
  const unplaced = MEMSCOPE_UNPLACED.flatMap((reason) => {
    const seen = converted.unplaced[reason];
    return seen === undefined ? [] : [{ reason, count: seen.count, firstLine: seen.firstLine }];
  });
  const facts: ImportedFacts = {
    name: file.name,
    bytes: file.bytes,
    format: 'msmemscope',
    formatEvidence: snapshot.formatEvidence,
    profile: profile.name,
    pageSize1g,
    timeBasis: 'time_us',
    traceEntries: converted.rows,
    segments: snapshot.segments.length,
    inconsistent: session.inconsistent,
    finalMismatch: session.finalMismatch,
    devices: session.final.devices.length,
    expandableDevices: session.expandableDevices,
    ...(session.pinnedHost === undefined ? {} : { pinnedHost: session.pinnedHost }),
    unplaced,
    unplacedIn: file.rowsAre,
    halPages: { recorded: converted.halPagesRecorded, modeled: converted.halPagesModeled },
    halHandles: converted.halHandles,
  };
  const { message, transfer } = sessionReply('done', facts, session);
  reply(message, transfer);
}
