import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { EVENT_TABLE } from '../model/event-table.ts';
import type { MemoryEvent } from '../model/events.ts';
import { deviceProfile, either, type Shape } from '../model/shape.ts';
import { encodeSnapshot } from '../model/snapshot.ts';
import { SNAPSHOT_SHAPE } from '../model/snapshot-table.ts';
import { BUILTIN_PROFILES } from '../profiles/builtin.ts';
import { SimHost } from '../sim/sim-host.ts';
import { SimRuntime } from '../sim/sim-runtime.ts';
import type { Hex } from '../units/hex.ts';
import { memoryEvent, snapshot } from './event-guards.ts';
import { MemoryEventSchema, SnapshotSchema } from './event-schemas.ts';
import { isBulkAgentMessage } from './fast-agent-message.ts';
import type { Guard } from './guards.ts';
import { AgentMessage } from './messages.ts';
import { describeIssue, type ParsedAgentMessage, type ParseResult, parseAgentMessage } from './parse.ts';
import {
  arbitraryFor,
  containers,
  fullSample,
  type Overrides,
  oneChangeVariants,
  sameJson,
  TRICKY_VALUES,
  viaJson,
} from './shape-arbitrary.test-helper.ts';

/**
 * The guard's contract: yes exactly when zod accepts the value and returns it unchanged. (zod accepts
 * an own `__proto__` key in a record but strips it; the guard leaves such values to zod.)
 */
function expectAgreement(guard: Guard, schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value);
  expect(guard(value)).toBe(parsed.success && sameJson(parsed.data, value));
}

/** parseAgentMessage as it was before the guards: JSON, then zod on everything. */
function parseWithZodOnly(text: string): ParseResult<ParsedAgentMessage> {
  const value: unknown = JSON.parse(text);
  const result = AgentMessage.safeParse(value);
  return result.success ? { ok: true, value: result.data } : { ok: false, ...describeIssue(value, result.error) };
}

const MUTATIONS = ['replace', 'delete', 'add-key', 'add-proto', 'grow'] as const;
const GROWN_LENGTHS = [2, 17, 33, 65];

/** One change somewhere inside a JSON value, chosen by the numbers fast-check draws. */
function mutate(value: unknown, site: number, mutation: (typeof MUTATIONS)[number], pick: number): unknown {
  const copy = viaJson(value);
  const places = containers(copy);
  const place = places[site % places.length];
  if (place === undefined) return TRICKY_VALUES[pick % TRICKY_VALUES.length];
  const node: object = place.node;
  const keys = Object.keys(node);
  const key = keys[pick % Math.max(1, keys.length)];
  switch (mutation) {
    case 'replace':
      if (key !== undefined) Reflect.set(node, key, TRICKY_VALUES[pick % TRICKY_VALUES.length]);
      break;
    case 'delete':
      if (key !== undefined) {
        if (Array.isArray(node)) node.splice(Number(key), 1);
        else Reflect.deleteProperty(node, key);
      }
      break;
    case 'add-key':
      if (Array.isArray(node)) node.push(TRICKY_VALUES[pick % TRICKY_VALUES.length]);
      else Reflect.set(node, 'extra', 1);
      break;
    case 'add-proto':
      // An own key named __proto__, as JSON.parse makes from {"__proto__": …}.
      if (!Array.isArray(node))
        Object.defineProperty(node, '__proto__', { value: { a: 1 }, enumerable: true, writable: true, configurable: true });
      break;
    case 'grow':
      if (Array.isArray(node) && node.length > 0) {
        const length = GROWN_LENGTHS[pick % GROWN_LENGTHS.length] ?? 2;
        while (node.length < length) node.push(node[node.length % Math.max(1, node.length)]);
      }
      break;
  }
  return copy;
}

/** Valid values, and valid values with one random mutation somewhere. */
function withMutations(shape: Shape, shapeOverrides: Overrides = new Map()): fc.Arbitrary<unknown> {
  const valid = arbitraryFor(shape, shapeOverrides).map(viaJson);
  const mutated = fc
    .tuple(valid, fc.nat(), fc.constantFrom(...MUTATIONS), fc.nat())
    .map(([value, site, mutation, pick]) => mutate(value, site, mutation, pick));
  return fc.oneof(valid, mutated);
}

/** Device profiles: the built-in ones (valid), or ones changed in one place (which the profile's schema mostly refuses). */
const overrides: Overrides = new Map([
  [
    deviceProfile,
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...BUILTIN_PROFILES) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...BUILTIN_PROFILES).chain((profile) => fc.constantFrom(...oneChangeVariants(deviceProfile, profile))),
      },
    ),
  ],
]);

/** Any event: one of the table's rows. */
const anyEvent = either(...Object.values(EVENT_TABLE));

describe('event guards accept exactly what MemoryEventSchema accepts', () => {
  const kinds = Object.values(EVENT_TABLE).map((option) => ({ name: option.fields.kind.values.join('/'), option }));

  it.each(kinds)('$name events, valid and mutated', ({ option }) => {
    fc.assert(
      fc.property(withMutations(option), (value) => expectAgreement(memoryEvent, MemoryEventSchema, value)),
      { numRuns: 300 },
    );
  });

  it.each(kinds)('$name events changed in one place: every bound, length, word, key and type', ({ option }) => {
    const base = fullSample(option);
    expect(memoryEvent(base)).toBe(true);
    const variants = oneChangeVariants(option, base);
    for (const variant of variants) expectAgreement(memoryEvent, MemoryEventSchema, viaJson(variant));
    expect(variants.filter((variant) => !MemoryEventSchema.safeParse(variant).success).length).toBeGreaterThan(variants.length / 2);
  });

  it('every generated valid event passes both, so the comparisons above are not all refusals', () => {
    for (const { option } of kinds) {
      const samples = fc.sample(arbitraryFor(option).map(viaJson), 50);
      const accepted = samples.filter((value) => MemoryEventSchema.safeParse(value).success);
      expect(accepted.length).toBeGreaterThan(40);
      for (const value of accepted) expect(memoryEvent(value)).toBe(true);
    }
  });

  it('refuses values zod refuses, whatever their shape', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => expectAgreement(memoryEvent, MemoryEventSchema, value)),
      { numRuns: 500 },
    );
    for (const value of [null, [], 'alloc', { kind: 'alloc' }, { kind: 'nothing', seq: 1 }, { kind: ['alloc'] }]) {
      expect(memoryEvent(value)).toBe(false);
    }
  });

  it('accepts the events of a simulator session touching most kinds, as zod does', async () => {
    const events = await sessionEvents();
    expect(new Set(events.map((event) => event.kind)).size).toBeGreaterThanOrEqual(18);
    for (const event of events) {
      const value = viaJson(event);
      expect(MemoryEventSchema.safeParse(value).success).toBe(true);
      expect(memoryEvent(value)).toBe(true);
    }
  });
});

/** Device, host, copy, stream and VMM calls on the simulator; every event they caused. */
async function sessionEvents(): Promise<MemoryEvent[]> {
  const host = new SimHost({ seed: 7 });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  const MiB = 1024 * 1024;
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const NULL: Hex = '0x0';
  const devPtrs: Hex[] = [];
  for (const policy of [0, 1, 2, 3]) devPtrs.push((await rt.aclrtMalloc({ size: 3 * MiB, policy })).devPtr ?? NULL);
  const pinned = (await rt.aclrtMallocHost({ size: 4 * MiB })).hostPtr ?? NULL;
  const pageable = (await rt.malloc({ size: 4 * MiB })).ptr ?? NULL;
  await rt.aclrtHostRegisterV2({ ptr: pageable, size: 4 * MiB, flag: 0x10000002 });
  const [dst = NULL] = devPtrs;
  await rt.aclrtMemcpy({ dst, destMax: 3 * MiB, src: pinned, count: MiB, kind: 1 });
  const stream = (await rt.aclrtCreateStream({})).stream ?? NULL;
  await rt.aclrtMemcpyAsync({ dst, destMax: 3 * MiB, src: pageable, count: MiB, kind: 1, stream });
  await rt.aclrtSynchronizeStream({ stream });
  await rt.aclrtDestroyStream({ stream });
  await rt.aclrtMemset({ devPtr: dst, maxCount: 3 * MiB, value: 0, count: MiB });
  const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 };
  const handle = (await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).handle ?? NULL;
  const virPtr = (await rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr ?? NULL;
  await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  await rt.aclrtMemSetAccess({ virPtr, size: 2 * MiB, desc: [{ flags: 3, location: { type: 1, id: 0 } }], count: 1 });
  await rt.aclrtUnmapMem({ virPtr });
  await rt.aclrtReleaseMemAddress({ virPtr });
  await rt.aclrtFreePhysical({ handle });
  await rt.aclrtHostUnregister({ ptr: pageable });
  await rt.aclrtFreeHost({ hostPtr: pinned });
  for (const devPtr of devPtrs) await rt.aclrtFree({ devPtr });
  await rt.aclrtResetDevice({ deviceId: 0 });
  await rt.aclFinalize({});
  return events;
}

describe('snapshot guards accept exactly what SnapshotSchema accepts', () => {
  it('random snapshots, valid and mutated', () => {
    fc.assert(
      fc.property(withMutations(SNAPSHOT_SHAPE, overrides), (value) => expectAgreement(snapshot, SnapshotSchema, value)),
      { numRuns: 400 },
    );
  });

  it('a snapshot changed in one place: every bound, length, word, key and type of every table', () => {
    const base = fullSample(SNAPSHOT_SHAPE, new Map([[deviceProfile, BUILTIN_PROFILES[0]]]));
    expect(snapshot(base)).toBe(true);
    const variants = oneChangeVariants(SNAPSHOT_SHAPE, base);
    expect(variants.length).toBeGreaterThan(1000);
    for (const variant of variants) expectAgreement(snapshot, SnapshotSchema, viaJson(variant));
  });

  it('a simulator snapshot with allocations of every page class', async () => {
    const host = new SimHost({ seed: 3 });
    const runtime = new SimRuntime(host);
    await runtime.aclInit({ configPath: null });
    await runtime.aclrtSetDevice({ deviceId: 0 });
    for (const policy of [0, 1, 2, 3]) await runtime.aclrtMalloc({ size: 3 * 1024 * 1024, policy });
    await runtime.aclrtMallocHost({ size: 4096 });
    const value = viaJson(encodeSnapshot(host.state));
    expect(SnapshotSchema.safeParse(value).success).toBe(true);
    expect(snapshot(value)).toBe(true);
    // One bad field deep inside a large table is enough to refuse it.
    const broken = viaJson(value);
    Reflect.set(Reflect.get(Reflect.get(Object(broken), 'allocations'), 0), 'size', -1);
    expect(snapshot(broken)).toBe(false);
  });
});

describe('parseAgentMessage with guards answers exactly as with zod alone', () => {
  const eventMessages = fc
    .tuple(fc.array(withMutations(anyEvent), { maxLength: 4 }), fc.nat(), fc.nat())
    .map(([events, from, to]) => ({ type: 'events', from, to, events }));
  const snapshotMessages = fc
    .tuple(withMutations(SNAPSHOT_SHAPE, overrides), fc.nat(), fc.boolean())
    .map(([snapshot, seq, reset]) => ({ type: 'snapshot', seq, reset, snapshot }));
  const messages = fc
    .tuple(fc.oneof(eventMessages, snapshotMessages), fc.nat(), fc.constantFrom(...MUTATIONS), fc.nat())
    .chain(([message, site, mutation, pick]) => fc.constantFrom(message, mutate(message, site, mutation, pick)));

  it('for event batches and snapshots, valid and mutated: same value, or the same error and field', () => {
    fc.assert(
      fc.property(messages, (message) => {
        const text = JSON.stringify(message);
        expect(parseAgentMessage(text)).toEqual(parseWithZodOnly(text));
      }),
      { numRuns: 500 },
    );
  });

  it('names the offending field of a malformed event, as before', () => {
    const event = { seq: 5, t: 0, provenance: 'simulated', kind: 'free', id: -3 };
    const result = parseAgentMessage(JSON.stringify({ type: 'events', from: 5, to: 5, events: [event] }));
    expect(result).toEqual({ ok: false, field: 'events.0.id', message: expect.stringContaining('field "events.0.id": received -3') });
  });

  it('takes the fast path only for what zod would return unchanged', () => {
    expect(isBulkAgentMessage({ type: 'events', from: 1, to: 0, events: [] })).toBe(true);
    expect(isBulkAgentMessage({ type: 'pong', time: 1 })).toBe(false);
    expect(isBulkAgentMessage(JSON.parse('{"type":"events","from":1,"to":0,"events":[],"__proto__":{}}'))).toBe(false);
  });
});
