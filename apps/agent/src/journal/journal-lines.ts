import { clip, describeIssue, MAX_AGENT_NESTING, MemoryEventSchema, nestingProblem } from '@pagelens/core';
import { z } from 'zod';

/** What a journal's header and reset entries record of the backend (entries.ts writes them). */
export const Config = z.object({
  backend: z.string(),
  profile: z.string(),
  profileJson: z.unknown().optional(),
  devices: z.number().int().min(1).max(16),
  seed: z.number().int().nonnegative(),
});
export type Config = z.infer<typeof Config>;

const Entry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), version: z.literal(1), created: z.string(), config: Config }),
  z.object({ type: z.literal('reset'), config: Config }),
  z.object({ type: z.literal('session'), session: z.string(), action: z.string() }),
  z.object({ type: z.literal('process'), session: z.string(), process: z.number().int(), pid: z.number().int(), name: z.string() }),
  z.object({
    type: z.literal('call'),
    session: z.string(),
    process: z.number().int(),
    id: z.number().int(),
    fn: z.string(),
    args: z.record(z.string(), z.unknown()),
    source: z.string(),
  }),
  z.object({
    type: z.literal('result'),
    session: z.string(),
    id: z.number().int(),
    ret: z.number().int(),
    out: z.record(z.string(), z.unknown()).optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('events'), events: z.array(MemoryEventSchema) }),
]);
export type Entry = z.infer<typeof Entry>;

/** One entry and the line of the file it was read from (1-based), for messages. */
export interface JournalLine {
  readonly line: number;
  readonly entry: Entry;
}

export type JournalRead = { ok: true; lines: JournalLine[] } | { ok: false; message: string };

/**
 * Reads a journal's text: each non-empty line one JSON object, nested at most MAX_AGENT_NESTING
 * levels (measured before zod, the argument checks or canonicalJson walk it: a corrupted or hostile
 * line must be refused, not overflow the stack), that is a journal entry. The first line that is not
 * is named with its number and what is wrong with it; every text stays short.
 */
export function readJournal(text: string, file: string): JournalRead {
  const lines: JournalLine[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const where = `line ${index + 1} of ${file}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      return { ok: false, message: `${where} is not JSON (${clip(error instanceof Error ? error.message : String(error), 200)})` };
    }
    const problem = nestingProblem(json, MAX_AGENT_NESTING, where);
    if (problem !== undefined) return { ok: false, message: problem };
    const parsed = Entry.safeParse(json);
    if (!parsed.success) return { ok: false, message: `${where} is not a journal entry (${describeIssue(json, parsed.error).message})` };
    lines.push({ line: index + 1, entry: parsed.data });
  }
  return { ok: true, lines };
}
