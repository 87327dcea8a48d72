import { describe, expect, it } from 'vitest';
import { readCallLine } from '../../src/run/call-line.ts';
import { LineReader } from '../../src/run/line-reader.ts';

/** What JSON.parse of the whole line gives: the reading the fast path must agree with. */
function byJson(line: string): unknown {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const m = message as Record<string, unknown>;
  if (typeof m.f !== 'string') return undefined;
  const a = m.a;
  return {
    fn: m.f,
    thread: typeof m.t === 'number' ? m.t : 0,
    site: typeof m.s === 'string' ? m.s : undefined,
    args: typeof a === 'object' && a !== null && !Array.isArray(a) ? { ...a } : {},
  };
}

const LINES = [
  // pl_begin()'s own shape, as the stubs write it
  '{"f":"aclrtGetDevice","t":1234,"s":"0x55555555a000","a":{}}',
  '{"f":"aclrtMalloc","t":7,"s":"0x401000","a":{"size":4096,"policy":0,"__real":"0x7f0000001000"}}',
  '{"f":"aclrtMemcpyBatch","t":7,"s":"0x1","a":{"dsts":["0x1","0x2"],"sizes":[1,2]}}',
  '{"f":"aclrtFoo","t":1,"s":"0x1","a":{"notModeled":1}}',
  // near misses: each must read exactly as JSON.parse reads it
  '{"f":"aclrtGetDevice","t":1e3,"s":"0x1","a":{}}',
  '{"f":"aclrtGetDevice","t":-0,"s":"0x1","a":{}}',
  '{"f":"acl\\u0072tGetDevice","t":1,"s":"0x1","a":{}}',
  '{"f":"aclrtGetDevice","t":1,"s":"0x\\"1","a":{}}',
  '{"f":"aclrt\tGetDevice","t":1,"s":"0x1","a":{}}',
  '{"f":"aclrtGetDevice","t":1,"s":"0x1","a":{},"f":"aclrtMalloc"}',
  '{"f":"aclrtGetDevice","t":1,"s":"0x1","a":[1,2]}',
  '{"f":"aclrtGetDevice","t":1,"s":"0x1","a":7}',
  '{"f":"aclrtGetDevice","t":1,"s":"0x1","a":{} }',
  '{"f":"aclrtGetDevice","t":1,"s":"0x1","a":{}',
  '{"f":"aclrtGetDevice","t":12345678901234567,"s":"0x1","a":{}}',
  '{"f":"aclrtGetDevice","s":"0x1","t":1,"a":{}}',
  '{"t":1,"s":"0x1","a":{}}',
  '{"f":7,"t":1,"s":"0x1","a":{}}',
  'not json',
  '',
];

describe('the interposer call line', () => {
  it.each(LINES)('reads %s exactly as JSON.parse of the whole line', (line) => {
    expect(readCallLine(line)).toEqual(byJson(line));
  });

  it('hands over a fresh arguments object per line', () => {
    const line = '{"f":"aclrtMalloc","t":7,"s":"0x401000","a":{"size":4096}}';
    const first = readCallLine(line);
    if (first !== undefined) first.args.size = 1;
    expect(readCallLine(line)?.args).toEqual({ size: 4096 });
  });
});

describe('LineReader', () => {
  const drain = (reader: LineReader): string[] => {
    const lines: string[] = [];
    for (let line = reader.next(); line !== undefined; line = reader.next()) lines.push(line);
    return lines;
  };

  it('gives whole lines however the bytes are cut, multi-byte characters included', () => {
    const text = '{"hello":1,"argv":["été","程序"]}\nsecond\n\nthird line\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let cut = 0; cut <= bytes.length; cut += 1) {
      for (const step of [1, 3, 7]) {
        const reader = new LineReader();
        const lines: string[] = [];
        reader.push(bytes.subarray(0, cut));
        lines.push(...drain(reader));
        for (let at = cut; at < bytes.length; at += step) {
          reader.push(bytes.subarray(at, Math.min(bytes.length, at + step)));
          lines.push(...drain(reader));
        }
        expect(lines).toEqual(['{"hello":1,"argv":["été","程序"]}', 'second', '', 'third line']);
      }
    }
  });

  it('counts the bytes waiting with no newline, none while a whole line waits', () => {
    const reader = new LineReader();
    reader.push(Buffer.from('abc'));
    reader.push(Buffer.from('def'));
    expect(reader.unendedBytes).toBe(6);
    reader.push(Buffer.from('\ngh'));
    expect(reader.unendedBytes).toBe(0);
    expect(reader.next()).toBe('abcdef');
    expect(reader.unendedBytes).toBe(2);
    expect(reader.next()).toBeUndefined();
  });
});
