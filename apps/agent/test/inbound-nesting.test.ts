import { MAX_CLIENT_NESTING, parseClientMessage } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { parseInbound, provenCall } from '../src/session/inbound.ts';

/** A call whose args.size holds nested arrays, so that the message nests `depth` levels. */
const callNesting = (depth: number): string =>
  `{"type":"call","id":7,"fn":"aclrtMalloc","args":{"size":${'['.repeat(depth - 2)}${']'.repeat(depth - 2)},"policy":0}}`;

describe('inbound fast path: nesting', () => {
  it('takes a proven call nested exactly MAX_CLIENT_NESTING levels, as core does', () => {
    const text = callNesting(MAX_CLIENT_NESTING);
    expect(provenCall(JSON.parse(text))).toBeDefined();
    const inbound = parseInbound(text);
    expect(inbound.ok).toBe(true);
    expect(JSON.stringify(inbound.ok ? inbound.value : undefined)).toBe(JSON.stringify(JSON.parse(text)));
    expect(parseClientMessage(text).ok).toBe(true);
  });

  it.each([MAX_CLIENT_NESTING + 1, 5000, 500_000])('refuses a proven call nested %i levels with core’s answer', (depth) => {
    const text = callNesting(depth);
    // The call's shape is proven; only its depth can refuse it.
    expect(provenCall(JSON.parse(text))).toBeDefined();
    const expected = { ok: false, message: `message nests ${depth} levels deep; at most ${MAX_CLIENT_NESTING} allowed` };
    expect(parseInbound(text)).toEqual(expected);
    expect(parseClientMessage(text)).toEqual(expected);
  });
});
