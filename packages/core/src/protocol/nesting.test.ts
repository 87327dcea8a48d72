import { describe, expect, it } from 'vitest';
import { jsonNesting, MAX_AGENT_NESTING, MAX_CLIENT_NESTING, nestingProblem } from './nesting.ts';
import { parseAgentMessage, parseClientMessage } from './parse.ts';
import { Call } from './session-messages.ts';

/** `depth` arrays, one inside the other, as JSON text. */
const nestedArrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
/** `depth` objects, each the value of key "a" of the one outside it. */
const nestedObjects = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
/** A ping whose id holds `depth - 1` nested arrays: the message nests `depth` levels. */
const pingNesting = (depth: number): string => `{"type":"ping","id":${nestedArrays(depth - 1)}}`;
/** The most `[` a 1 MiB message (the agent's payload limit) can hold with their `]`. */
const MIB_DEPTH = 512 * 1024;

describe('jsonNesting', () => {
  it.each([
    ['1', 0],
    ['"[[[["', 0],
    ['[]', 1],
    ['{}', 1],
    ['[{}]', 2],
    ['[1,[2,[3]],4]', 3],
    ['{"a":[{"b":"[[["}],"c":{}}', 3],
    ['[[],[[[]]],[]]', 4],
  ])('%s nests %i levels', (text, depth) => {
    expect(jsonNesting(JSON.parse(text))).toBe(depth);
  });

  it('measures 1 MiB of nested arrays and of nested objects without recursion', () => {
    expect(jsonNesting(JSON.parse(nestedArrays(MIB_DEPTH)))).toBe(MIB_DEPTH);
    expect(jsonNesting(JSON.parse(nestedObjects(200_000)))).toBe(200_000);
  });

  it('measures wide values by their deepest member', () => {
    const wide = Array.from({ length: 300_000 }, (_, index) => (index === 123_456 ? [[[]]] : index));
    expect(jsonNesting(wide)).toBe(4);
    const keys: Record<string, unknown> = {};
    for (let index = 0; index < 100_000; index += 1) keys[`k${index}`] = index === 99_999 ? { deep: [] } : index;
    expect(jsonNesting(keys)).toBe(3);
  });

  it('names the depth and the limit', () => {
    expect(nestingProblem(JSON.parse(nestedArrays(5000)), 32)).toBe('message nests 5000 levels deep; at most 32 allowed');
    expect(nestingProblem(JSON.parse(nestedArrays(32)), 32)).toBeUndefined();
    expect(nestingProblem([[[]]], 2, 'line 7')).toBe('line 7 nests 3 levels deep; at most 2 allowed');
  });

  it('leaves room for the deepest legitimate messages', () => {
    // A call (1) → args (2) → cfg (3) → attrs (4) → attribute (5) → value (6): the deepest client message.
    const cfg = { type: 'call', id: 1, fn: 'aclrtMallocWithCfg', args: { cfg: { attrs: [{ attr: 1, value: { moduleId: 1 } }] } } };
    expect(Call.safeParse(cfg).success).toBe(true);
    expect(jsonNesting(cfg)).toBe(6);
    expect(MAX_CLIENT_NESTING).toBeGreaterThanOrEqual(4 * 6);
    // Agent messages carry client args two levels deeper (events → event → args).
    expect(MAX_AGENT_NESTING).toBeGreaterThan(MAX_CLIENT_NESTING + 2);
  });
});

describe('parseClientMessage: nesting (at most MAX_CLIENT_NESTING levels)', () => {
  const refusal = (depth: number): string => `message nests ${depth} levels deep; at most ${MAX_CLIENT_NESTING} allowed`;

  it('judges a message nested exactly MAX_CLIENT_NESTING levels by the schema, and refuses one level more for its depth', () => {
    const atLimit = parseClientMessage(pingNesting(MAX_CLIENT_NESTING));
    expect(atLimit).toMatchObject({ ok: false, field: 'id' });
    expect(atLimit.ok ? '' : atLimit.message).toMatch(/^field "id": received \[\[\[/);
    expect(parseClientMessage(pingNesting(MAX_CLIENT_NESTING + 1))).toEqual({ ok: false, message: refusal(MAX_CLIENT_NESTING + 1) });
  });

  it('accepts a valid call whose args nest to the limit would only fail on its values, not its depth', () => {
    const args = `{"size":${nestedArrays(MAX_CLIENT_NESTING - 2)}}`;
    const call = parseClientMessage(`{"type":"call","id":1,"fn":"aclrtMalloc","args":${args}}`);
    expect(call.ok).toBe(true);
    const deeper = parseClientMessage(`{"type":"call","id":1,"fn":"aclrtMalloc","args":{"size":${nestedArrays(MAX_CLIENT_NESTING - 1)}}}`);
    expect(deeper).toEqual({ ok: false, message: refusal(MAX_CLIENT_NESTING + 1) });
  });

  it.each([
    ['5,000 nested arrays before hello', nestedArrays(5000), 5000],
    ['a ping whose id nests 5,000 levels', pingNesting(5000), 5000],
    ['1 MiB of nested arrays', nestedArrays(MIB_DEPTH), MIB_DEPTH],
    ['200,000 nested objects', nestedObjects(200_000), 200_000],
    ['a call with 5,000 levels in args.size', `{"type":"call","id":3,"fn":"aclrtMalloc","args":{"size":${nestedArrays(4998)}}}`, 5000],
  ])('refuses %s with the depth and the limit', (_name, text, depth) => {
    expect(parseClientMessage(text)).toEqual({ ok: false, message: refusal(depth) });
  });
});

describe('parseClientMessage: wide and long messages get a short answer', () => {
  const keys = (count: number, prefix = 'k'): string =>
    Array.from({ length: count }, (_, index) => `"${prefix}${index}":${index}`).join(',');

  it.each([
    [
      'a ping with 100,000 unknown keys',
      `{"type":"ping",${keys(100_000)}}`,
      /^message: received \{"type":"ping","k0":0,.*…; Unrecognized keys: "k0", "k1", "k2" and 99,997 more$/,
    ],
    ['an object of 100,000 keys without a type', `{${keys(100_000)}}`, /^field "type": received nothing; /],
    [
      'a ping whose id is an array of 300,000 numbers',
      `{"type":"ping","id":[${'1,'.repeat(299_999)}1]}`,
      /^field "id": received \[1,1,1.*…; /,
    ],
    ['a key of 1 MiB', `{"type":"ping","${'x'.repeat(1 << 20)}":1}`, /^message: received \{"type":"ping","x+…; Unrecognized key: "x+…$/],
    ['a type of 1 MiB', `{"type":"${'t'.repeat(1 << 20)}"}`, /^field "type": received "t+…; /],
    [
      'a hello whose client is 1 MiB',
      `{"type":"hello","protocol":1,"role":"driver","client":"${'c'.repeat(1 << 20)}"}`,
      /^field "client": received "c+…; Too big/,
    ],
    ['a 1 MiB text that is not JSON', 'x'.repeat(1 << 20), /^not valid JSON \(.*\); every message is one JSON object$/],
  ])('%s', (_name, text, expected) => {
    const parsed = parseClientMessage(text);
    expect(parsed.ok).toBe(false);
    const message = parsed.ok ? '' : parsed.message;
    expect(message).toMatch(expected);
    expect(message.length).toBeLessThan(400);
  });
});

describe('parseAgentMessage: nesting', () => {
  it('refuses a result whose out nests deeper than MAX_AGENT_NESTING, and reads one at the limit', () => {
    const result = (depth: number): string =>
      `{"type":"result","id":1,"fn":"aclrtMalloc","ret":0,"retName":"ACL_SUCCESS","out":{"devPtr":${nestedArrays(depth - 2)}},"events":[],"durationNs":1}`;
    expect(parseAgentMessage(result(MAX_AGENT_NESTING)).ok).toBe(true);
    expect(parseAgentMessage(result(MAX_AGENT_NESTING + 1))).toEqual({
      ok: false,
      message: `message nests ${MAX_AGENT_NESTING + 1} levels deep; at most ${MAX_AGENT_NESTING} allowed`,
    });
    expect(parseAgentMessage(nestedArrays(MIB_DEPTH))).toMatchObject({ ok: false, message: expect.stringMatching(/nests 524288 levels/) });
  });

  it('measures an event batch the guards refuse before zod reads it', () => {
    expect(parseAgentMessage(`{"type":"events","from":1,"to":1,"events":[{"seq":${nestedArrays(5000)}}]}`)).toEqual({
      ok: false,
      message: `message nests 5003 levels deep; at most ${MAX_AGENT_NESTING} allowed`,
    });
    const shallow = parseAgentMessage(`{"type":"events","from":1,"to":1,"events":[{"kind":"free","seq":${nestedArrays(50)}}]}`);
    expect(shallow).toMatchObject({
      ok: false,
      field: 'events.0.seq',
      message: expect.stringMatching(/^field "events\.0\.seq": received \[\[\[/),
    });
  });
});
