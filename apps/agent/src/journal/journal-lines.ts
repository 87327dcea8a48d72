import { clip, describeIssue, MAX_AGENT_NESTING, nestingProblem } from '@pagelens/core';
import { type JournalEntry, JournalEntrySchema } from './entries.ts';

/** One entry and the line of the file it was read from (1-based), for messages. */
export interface JournalLine {
  readonly line: number;
  readonly entry: JournalEntry;
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
    const parsed = JournalEntrySchema.safeParse(json);
    if (!parsed.success) return { ok: false, message: `${where} is not a journal entry (${describeIssue(json, parsed.error).message})` };
    lines.push({ line: index + 1, entry: parsed.data });
  }
  return { ok: true, lines };
}
