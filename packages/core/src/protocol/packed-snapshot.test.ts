import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deviceProfile } from '../model/shape.ts';
import { encodeSnapshot, type Snapshot } from '../model/snapshot.ts';
import { SNAPSHOT_SHAPE } from '../model/snapshot-table.ts';
import { BUILTIN_PROFILES } from '../profiles/builtin.ts';
import { SimHost } from '../sim/sim-host.ts';
import { SimRuntime } from '../sim/sim-runtime.ts';
import type { Hex } from '../units/hex.ts';
import { SnapshotSchema } from './event-schemas.ts';
import { PACKED_TABLES, packSnapshot } from './packed-snapshot.ts';
import { parseAgentMessage } from './parse.ts';
import { arbitraryFor, sameJson, viaJson } from './shape-arbitrary.test-helper.ts';
import { unpackSnapshot } from './unpack-snapshot.ts';

/** What the agent sends and the client rebuilds: pack, then through JSON text as on the wire. */
function roundTrip(snapshot: Snapshot): unknown {
  const unpacked = unpackSnapshot(JSON.parse(JSON.stringify(packSnapshot(snapshot))));
  if (!unpacked.ok) throw new Error(unpacked.message);
  return unpacked.value;
}

/** A simulator snapshot with `count` allocations of mixed sizes and policies, some freed, host buffers and VMM objects. */
async function simulatorSnapshot(count: number): Promise<Snapshot> {
  const host = new SimHost({ seed: 7 });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const live: Hex[] = [];
  for (let i = 0; i < count; i += 1) {
    const out = await rt.aclrtMalloc({ size: 4096 * (1 + (i % 37)) + (i % 3), policy: i % 4 });
    if (out.devPtr !== undefined) live.push(out.devPtr);
    if (i % 5 === 4) await rt.aclrtFree({ devPtr: live.splice(i % live.length, 1)[0] ?? '0x0' });
  }
  await rt.aclrtMallocHost({ size: 8192 });
  const { handle } = await rt.aclrtMallocPhysical({
    size: 2 * 1024 * 1024,
    prop: { handleType: 0, allocationType: 0, memAttr: 4 /* ACL_HBM_MEM_HUGE */, location: { type: 1, id: 0 }, reserve: 0 },
    flags: 0,
  });
  const { virPtr } = await rt.aclrtReserveMemAddress({ size: 2 * 1024 * 1024, alignment: 0, expectPtr: '0x0', flags: 0 });
  if (handle !== undefined && virPtr !== undefined) await rt.aclrtMapMem({ virPtr, size: 2 * 1024 * 1024, offset: 0, handle, flags: 0 });
  return encodeSnapshot(host.state);
}

describe('packed snapshots (the form a client asks for with hello.snapshots = "packed")', () => {
  it('rebuild exactly the rows of any valid snapshot (property)', () => {
    const snapshots = arbitraryFor(SNAPSHOT_SHAPE, new Map([[deviceProfile, fc.constantFrom(...BUILTIN_PROFILES)]]))
      .map(viaJson)
      .filter((value) => SnapshotSchema.safeParse(value).success);
    fc.assert(
      fc.property(snapshots, (value) => {
        const snapshot = SnapshotSchema.parse(value);
        expect(sameJson(roundTrip(snapshot), viaJson(snapshot))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('rebuild a simulator snapshot of thousands of rows, in a third of the bytes or less', async () => {
    const snapshot = await simulatorSnapshot(3000);
    expect(snapshot.allocations.length).toBeGreaterThan(2000);
    expect(snapshot.mappings.length).toBe(1);
    expect(sameJson(roundTrip(snapshot), viaJson(snapshot))).toBe(true);
    const rows = JSON.stringify(snapshot).length;
    const packed = JSON.stringify(packSnapshot(snapshot)).length;
    expect(packed).toBeLessThan(rows / 3);
  });

  it('parse to the same message as the rows do', async () => {
    const snapshot = await simulatorSnapshot(200);
    const asRows = parseAgentMessage(JSON.stringify({ type: 'snapshot', seq: 9, reset: false, snapshot }));
    const asPacked = parseAgentMessage(JSON.stringify({ type: 'snapshot', seq: 9, reset: false, packed: packSnapshot(snapshot) }));
    expect(asRows.ok && asPacked.ok).toBe(true);
    expect(sameJson(asPacked.ok && asPacked.value, asRows.ok && asRows.value)).toBe(true);
  });

  it('pack every table the schema holds rows in, and leave the small parts as they are', async () => {
    const snapshot = await simulatorSnapshot(10);
    const packed = packSnapshot(snapshot);
    for (const table of PACKED_TABLES) expect(packed[table]).toEqual(expect.objectContaining({ rows: snapshot[table].length }));
    expect(packed.devices).toEqual(snapshot.devices);
  });
});

describe('a malformed packed snapshot is refused, naming the field', () => {
  const base = async () => viaJson(packSnapshot(await simulatorSnapshot(20))) as Record<string, Record<string, unknown>>;
  const columnsOf = (packed: Record<string, Record<string, unknown>>, table: string): Record<string, unknown> =>
    Object(packed[table]?.columns);

  it('a column shorter than the table', async () => {
    const packed = await base();
    const columns = columnsOf(packed, 'allocations');
    columns.devPtr = { values: ['0x1'] };
    const result = unpackSnapshot(packed);
    expect(result).toEqual({ ok: false, field: 'packed.allocations.columns.devPtr', message: expect.stringContaining('array of') });
  });

  it('an index outside its dictionary, a broken delta, an unknown column form', async () => {
    const cases: [unknown, string][] = [
      [{ pick: [1], index: Array(16).fill(1) }, 'index[0] is not a position'],
      [{ deltas: [...Array(15).fill(1), 0.5] }, 'deltas[15] is not an integer'],
      [{ deltas: [2 ** 53 - 1, ...Array(15).fill(1)] }, 'not a safe integer'],
      [{ sum: 3 }, 'unknown column form'],
      [[1, 2], 'expected a column object'],
    ];
    for (const [column, message] of cases) {
      const packed = await base();
      expect(packed.allocations?.rows).toBe(16);
      columnsOf(packed, 'allocations').size = column;
      const result = unpackSnapshot(packed);
      expect(result).toEqual({ ok: false, field: 'packed.allocations.columns.size', message: expect.stringContaining(message) });
    }
  });

  it('field names that are not identifiers, a missing table, an absurd row count', async () => {
    const proto = await base();
    Object.defineProperty(columnsOf(proto, 'streams'), '__proto__', { value: { same: 1 }, enumerable: true });
    expect(unpackSnapshot(proto)).toEqual(expect.objectContaining({ ok: false, field: 'packed.streams.columns' }));

    const missing = await base();
    delete missing.copies;
    expect(unpackSnapshot(missing)).toEqual(expect.objectContaining({ ok: false, field: 'packed.copies' }));

    const huge = await base();
    if (huge.handles !== undefined) huge.handles.rows = 1e12;
    expect(unpackSnapshot(huge)).toEqual(expect.objectContaining({ ok: false, field: 'packed.handles.rows' }));
  });

  it('rows rebuilt but wrong for the schema are refused by the schema, as sent rows would be', async () => {
    const packed = await base();
    columnsOf(packed, 'allocations').size = { same: -4096 };
    const result = parseAgentMessage(JSON.stringify({ type: 'snapshot', seq: 1, reset: false, packed }));
    expect(result).toEqual(expect.objectContaining({ ok: false, field: expect.stringMatching(/^snapshot\.allocations\.0\.size$/) }));
  });
});
