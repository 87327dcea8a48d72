import type { ImportedSession } from '@pagelens/core';
import type { ImportedFacts, ImportReply, SessionPayload } from './import-protocol.ts';

/**
 * The reply that hands an imported session to the page, with what it transfers: the stacks are
 * already interned in typed arrays (cloning each block's frame references took seconds on the
 * page's thread), and the trace entries' calls and the blocks go as their columns.
 */
export function sessionReply(
  type: 'done' | 'preview',
  facts: ImportedFacts,
  session: ImportedSession,
): { message: ImportReply; transfer: Transferable[] } {
  const blocks = session.blocks.parts();
  const events = session.recorded.pack();
  const { stacks } = session;
  const payload: SessionPayload = { facts, initial: session.initial, events: events.packed, blocks: blocks.parts, stacks };
  return {
    message: { type, ...payload },
    transfer: [stacks.starts.buffer, ...stacks.frameIds.map((chunk) => chunk.buffer), ...events.transfer, ...blocks.transfer],
  };
}
