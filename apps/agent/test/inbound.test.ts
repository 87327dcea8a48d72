import { parseClientMessage, Rng } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { parseInbound, provenCall } from '../src/session/inbound.ts';

/** The simulator's seeded PRNG as a function, so a failing case can be repeated. */
function prng(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

const CALLS: readonly string[] = [
  '{"type":"call","id":1,"fn":"aclrtMalloc","args":{"size":4096,"policy":"ACL_MEM_MALLOC_HUGE_FIRST"}}',
  '{"type":"call","id":2,"fn":"aclrtFree","args":{"devPtr":"0x100000000000"}}',
  '{"type":"call","id":3,"fn":"aclrtGetDeviceCount"}',
  '{"type":"call","id":9007199254740991,"fn":"x","args":{},"process":3}',
  '{"fn":"aclrtMalloc","args":{"size":1},"id":0,"type":"call","process":0}',
];

/** Values a field may take in the generated messages: right, nearly right and plainly wrong. */
const VALUES: readonly unknown[] = [
  0,
  -0,
  1,
  3,
  4,
  -1,
  1.5,
  2 ** 53,
  2 ** 53 - 1,
  1e308,
  '',
  'a',
  'call',
  'x'.repeat(64),
  'x'.repeat(65),
  '\ud83d\ude00'.repeat(32),
  '\ud83d\ude00'.repeat(33),
  null,
  true,
  [],
  [1],
  {},
  { size: 1 },
  { constructor: 'x' },
  { constructor: { prototype: null } },
];
const RIGHT: Readonly<Record<string, unknown>> = { type: 'call', id: 7, fn: 'aclrtMalloc', args: { size: 4096 }, process: 1 };
const ODD_KEYS = ['extra', '__proto__', 'constructor'] as const;

/** A call-like message: each field absent, right, or drawn from VALUES; now and then a key no call has. */
function candidate(next: () => number): string {
  const pick = <T>(items: readonly T[]): T | undefined => items[Math.floor(next() * items.length)];
  const parts: string[] = [];
  for (const [key, right] of Object.entries(RIGHT)) {
    const roll = next();
    if (roll < 0.1) continue;
    parts.push(`${JSON.stringify(key)}:${JSON.stringify(roll < 0.75 ? right : pick(VALUES))}`);
  }
  for (const key of ODD_KEYS) if (next() < 0.05) parts.push(`${JSON.stringify(key)}:${JSON.stringify(pick(VALUES))}`);
  // Built as text so that "__proto__" is an own key, as it is when a client sends it.
  if (next() < 0.1) parts.push('"args":{"__proto__":{"size":1}}');
  return `{${parts.join(',')}}`;
}

/**
 * Same value, key order included (it reaches the journal). Not toStrictEqual: it compares a key
 * named "constructor" as the prototype's constructor, by reference, across two separate parses.
 */
function expectSame(actual: unknown, expected: unknown, text: string): void {
  expect(JSON.stringify(actual), text).toBe(JSON.stringify(expected));
  expect(actual, text).toEqual(expected);
}

describe('inbound fast path', () => {
  it('takes the well-formed calls and gives exactly what the Call schema gives', () => {
    for (const text of CALLS) {
      const proven = provenCall(JSON.parse(text));
      expect(proven, text).toBeDefined();
      const schema = parseClientMessage(text);
      expect(schema.ok).toBe(true);
      if (schema.ok) expectSame(proven, schema.value, text);
    }
  });

  it('never accepts what the schema refuses, and agrees with it on 30,000 generated messages', () => {
    const next = prng(20261129);
    let proven = 0;
    let refused = 0;
    for (let i = 0; i < 30_000; i += 1) {
      const text = candidate(next);
      const schema = parseClientMessage(text);
      const fast = provenCall(JSON.parse(text));
      if (fast !== undefined) {
        proven += 1;
        expect(schema.ok, text).toBe(true);
        if (schema.ok) expectSame(fast, schema.value, text);
      }
      if (!schema.ok) refused += 1;
      expectSame(parseInbound(text), schema, text);
    }
    // Both paths were exercised: many accepted on the fast path, many refused by the schema.
    expect(proven).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(5000);
  });

  it('answers messages that are not JSON, and other message types, exactly as core does', () => {
    for (const text of ['{not json', '', '[]', 'null', '{"type":"hello","protocol":1,"role":"viewer"}', '{"type":"ping","id":-1}']) {
      expectSame(parseInbound(text), parseClientMessage(text), text);
    }
  });
});
