import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_AGENT_NESTING } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../src/journal/entries.ts';
import { openFileJournal } from '../src/journal/file-journal.ts';
import { replayJournal } from '../src/journal/replay.ts';
import type { Logger } from '../src/server/logger.ts';

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-hostile-journal-'));
  dirs.push(dir);
  return dir;
}

/** `depth` arrays, one inside the other, as JSON text. */
const nestedArrays = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const HEADER = JSON.stringify({
  type: 'header',
  version: 1,
  created: '2026-11-29T00:00:00.000Z',
  config: { backend: 'sim', profile: 'Ascend910B2', devices: 1, seed: 1 },
});
const OPEN = [
  '{"type":"session","session":"s1","action":"open"}',
  '{"type":"process","session":"s1","process":0,"pid":4001,"name":"session s1"}',
];

/** Replays a journal of these lines; its exit code and what it printed. */
async function replayLines(lines: readonly string[]): Promise<{ code: number; out: string; file: string }> {
  const file = join(tempDir(), 'hostile.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const out: string[] = [];
  const code = await replayJournal(file, { quiet: false, out: (line) => out.push(line) });
  return { code, out: out.join('\n'), file };
}

describe('pagelens replay of a hostile or corrupted journal', () => {
  it.each([
    [
      'a call whose args.size nests 5,000 levels',
      `{"type":"call","session":"s1","process":0,"id":1,"fn":"aclrtMalloc","args":{"size":${nestedArrays(4998)},"policy":0},"source":"client"}`,
      5000,
    ],
    ['1 MiB of nested arrays', nestedArrays(512 * 1024), 512 * 1024],
    [
      'an events entry whose call event nests 5,000 levels',
      `{"type":"events","events":[{"seq":1,"t":0,"provenance":"simulated","kind":"call","pid":4001,"fn":"aclInit","args":{"configPath":${nestedArrays(4996)}},"ret":0,"durationNs":0}]}`,
      5000,
    ],
    [
      'a result whose out nests one level too deep',
      `{"type":"result","session":"s1","id":1,"ret":0,"out":{"x":${nestedArrays(MAX_AGENT_NESTING - 1)}}}`,
      MAX_AGENT_NESTING + 1,
    ],
  ])('refuses %s, naming the line and the limit (exit 2)', async (_name, line, depth) => {
    const { code, out, file } = await replayLines([HEADER, ...OPEN, line]);
    expect(out).toBe(`replay: line 4 of ${file} nests ${depth} levels deep; at most ${MAX_AGENT_NESTING} allowed`);
    expect(code).toBe(2);
  });

  it('reads a line nested exactly to the limit, and reports a call whose arguments do not validate (exit 1)', async () => {
    const size = nestedArrays(MAX_AGENT_NESTING - 2);
    const { code, out } = await replayLines([
      HEADER,
      ...OPEN,
      `{"type":"call","session":"s1","process":0,"id":1,"fn":"aclrtMalloc","args":{"size":${size},"policy":0},"source":"client"}`,
    ]);
    expect(out).toContain('call 1 aclrtMalloc (line 4): its arguments no longer validate');
    expect(code).toBe(1);
  });

  it.each([
    ['text that is not JSON', 'not json', /^replay: line 4 of .* is not JSON \(Unexpected token/],
    ['1 MiB that is not JSON', `{"type":"${'x'.repeat(1 << 20)}`, /^replay: line 4 of .* is not JSON \(.{1,200}\)$/],
    [
      'an entry of an unknown type, 1 MiB long',
      `{"type":"${'t'.repeat(1 << 20)}"}`,
      /^replay: line 4 of .* is not a journal entry \(field "type": received "t+…; Invalid/,
    ],
    [
      'a call whose fn is 1 MiB long',
      `{"type":"call","session":"s1","process":0,"id":1,"fn":"${'f'.repeat(1 << 20)}","args":{},"source":"client"}`,
      /\n {2}call 1 f{60}… \(line 4\): no such process or function(\n|$)/,
    ],
    [
      'a call whose args hold 100,000 keys',
      `{"type":"call","session":"s1","process":0,"id":1,"fn":"aclrtFree","args":{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(',')}},"source":"client"}`,
      /\n {2}call 1 aclrtFree \(line 4\): its arguments no longer validate(\n|$)/,
    ],
  ])('answers %s briefly, naming the line', async (_name, line, expected) => {
    const { code, out } = await replayLines([HEADER, ...OPEN, line]);
    expect(out).toMatch(expected);
    expect(out.length).toBeLessThan(800);
    expect(code).toBeGreaterThanOrEqual(1);
  });

  it('names the line of a header or reset that names a profile it does not know (exit 2)', async () => {
    const header = HEADER.replace('"Ascend910B2"', `"${'P'.repeat(1 << 20)}"`);
    const unknownHeader = await replayLines([header, ...OPEN]);
    expect(unknownHeader.out).toBe(
      `replay: line 1 of ${unknownHeader.file}: the journal names profile "${'P'.repeat(60)}…", which this PageLens does not know`,
    );
    expect(unknownHeader.code).toBe(2);
    const reset = '{"type":"reset","config":{"backend":"sim","profile":"Ascend999","devices":1,"seed":1}}';
    const unknownReset = await replayLines([HEADER, ...OPEN, reset]);
    expect(unknownReset.out).toMatch(/^replay: line 4 of .*: unknown profile "Ascend999"; a reset may choose/);
    expect(unknownReset.code).toBe(2);
  });
});

describe('the file journal', () => {
  it('stops journaling, with a warning, at an entry JSON cannot write, instead of failing the call', async () => {
    const dir = tempDir();
    const warnings: string[] = [];
    const log: Logger = { info: () => {}, warn: (message) => warnings.push(message), error: () => {} };
    const journal = openFileJournal(dir, log);
    journal.write({ type: 'session', session: 's1', action: 'open' });
    let deep: unknown = [];
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const hostile: JournalEntry = {
      type: 'call',
      session: 's1',
      process: 0,
      id: 1,
      fn: 'aclrtFree',
      args: { devPtr: deep },
      source: 'client',
    };
    expect(() => journal.write(hostile)).not.toThrow();
    journal.write({ type: 'session', session: 's1', action: 'detach' });
    await journal.close();
    expect(warnings).toEqual([
      expect.stringMatching(/cannot record a call entry \(Maximum call stack size exceeded\); journaling stopped$/),
    ]);
    expect(readFileSync(journal.path ?? '', 'utf8')).toBe('{"type":"session","session":"s1","action":"open"}\n');
  });
});
