import { type ImportedSession, internStacks } from '@pagelens/core';
import type { ImportedFacts, ImportReply, SessionPayload } from './import-protocol.ts';

/**
 * The reply that hands an imported session to the page, with what it transfers. Stacks go
 * interned, in typed arrays: cloning each block's frame references took seconds on the page's thread.
 */
export function sessionReply(
  type: 'done' | 'preview',
  facts: ImportedFacts,
  session: ImportedSession,
): { message: ImportReply; transfer: Transferable[] } {
  const all = Array.from({ length: session.final.devices.length }, (_, device) => session.blocks.all(device)).flat();
  const { table, ids } = internStacks(all.map((block) => block.frames));
  const payload: SessionPayload = {
    facts,
    initial: session.initial,
    events: session.events,
    blocks: all.map((block) => ({ ...block, frames: [] })),
    stacks: table,
    stackIds: ids,
  };
  return { message: { type, ...payload }, transfer: [table.starts.buffer, table.frameIds.buffer, ids.buffer] };
}
