import { type ImportedSession, internStacks, packEvents } from '@pagelens/core';
import type { ImportedFacts, ImportReply, SessionPayload } from './import-protocol.ts';

/**
 * The reply that hands an imported session to the page, with what it transfers. Stacks go
 * interned, in typed arrays: cloning each block's frame references took seconds on the page's thread;
 * the trace entries' calls go as their columns.
 */
export function sessionReply(
  type: 'done' | 'preview',
  facts: ImportedFacts,
  session: ImportedSession,
): { message: ImportReply; transfer: Transferable[] } {
  const all = Array.from({ length: session.final.devices.length }, (_, device) => session.blocks.all(device)).flat();
  const { table, ids } = internStacks(all.map((block) => block.frames));
  const events = packEvents(session.events);
  const payload: SessionPayload = {
    facts,
    initial: session.initial,
    events: events.packed,
    blocks: all.map((block) => ({ ...block, frames: [] })),
    stacks: table,
    stackIds: ids,
  };
  return { message: { type, ...payload }, transfer: [table.starts.buffer, table.frameIds.buffer, ids.buffer, ...events.transfer] };
}
