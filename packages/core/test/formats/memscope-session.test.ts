import { describe, expect, it } from 'vitest';
import { readMemScopeEvents } from '../../src/formats/ascend-csv.ts';
import { memScopeDumpReader, memScopeFrames, memScopeToSnapshot, readMemScopeDump } from '../../src/formats/memscope-session.ts';
import { toChromeTrace } from '../../src/formats/perfetto.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { entriesOf, withArrays } from './snapshot-fixtures.ts';

const MiB = 1024 * 1024;
const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const T0 = 1732000000000000000n;

/** One dump row; `attr` as msMemScope writes it, in braces. */
function row(id: number, event: string, type: string, dt: number, device: string, ptr: string, attr: string, stack = ''): string {
  return `${id},${event},${type},N/A,${T0 + BigInt(dt)},4242,4243,${device},${ptr},"{${attr}}","${stack}",`;
}

const SEG = 0x12c000000000n;
const hex = (value: bigint): string => `0x${value.toString(16)}`;

/** A HAL region of 20 MiB holding two PTA blocks, one freed; plus every kind of row the model cannot place. */
const DUMP = [
  HEADER,
  row(1, 'SYSTEM', 'ACL_INIT', 0, '0', 'N/A', ''),
  row(2, 'MALLOC', 'HAL', 1000, '0', hex(SEG), `addr:${hex(SEG)},size:${20 * MiB},page_type:huge`),
  row(
    3,
    'MALLOC',
    'PTA',
    2000,
    '0',
    hex(SEG),
    `allocation_id:1,addr:${hex(SEG)},size:4096,owner:PTA@model`,
    'train.py(10): step\nmodel.py(42): forward',
  ),
  row(4, 'MALLOC', 'PTA', 3000, '0', hex(SEG + 0x100000n), `allocation_id:2,size:${2 * MiB}`, 'train.py(11): step'),
  row(5, 'FREE', 'PTA', 4000, '0', hex(SEG), `allocation_id:1,size:4096`),
  row(6, 'ACCESS', 'READ', 4500, '0', hex(SEG), 'size:4096'),
  row(7, 'MALLOC', 'HOST', 5000, '0', '0x7f0000000000', 'size:64'),
  row(8, 'MALLOC', 'PTA', 6000, '0', '0x990000000000', 'size:512'),
  row(9, 'FREE', 'PTA', 7000, '0', '0x880000000000', 'size:512'),
  row(10, 'MALLOC', 'PTA', 8000, 'N/A', '0x1', 'size:512'),
  row(11, 'MALLOC', 'PTA', 9000, '0', '0x2', 'owner:x'),
  row(12, 'MALLOC', 'HAL', 10000, '1', '0x20000000', `size:${2 * MiB}`),
].join('\n');

describe('msMemScope dump as a recorded session', () => {
  const converted = readMemScopeDump(DUMP, 'memscope_dump_1.csv');

  it('HAL rows become device allocations, framework rows blocks, in time order with the stack frames', () => {
    const trace = entriesOf(converted.snapshot.deviceTraces[0]);
    expect(trace.map((entry) => entry.action)).toEqual(['segment_alloc', 'alloc', 'alloc', 'free_requested', 'free_completed', 'alloc']);
    expect(trace[0]).toMatchObject({ addr: SEG, size: 20 * MiB, timeUs: 1 });
    expect(trace[4]).toMatchObject({ action: 'free_completed', addr: SEG, size: 4096, timeUs: 4 });
    expect(trace[1]?.frames).toEqual([
      { filename: 'train.py', line: 10, name: 'step' },
      { filename: 'model.py', line: 42, name: 'forward' },
    ]);
    expect(entriesOf(converted.snapshot.deviceTraces[1]).map((entry) => entry.action)).toEqual(['segment_alloc']);
    expect(converted.halRows).toBe(2);
    expect(converted.blockRows).toBe(4);
  });

  it('every row it cannot place is counted by its reason, with the first line', () => {
    expect(converted.unplaced).toEqual({
      'not-malloc-free': { count: 2, firstLine: 2 },
      // Row 3's stack holds a line break inside its quotes, so the rows after it start one line later.
      host: { count: 1, firstLine: 9 },
      'outside-hal': { count: 1, firstLine: 10 },
      'free-unknown': { count: 1, firstLine: 11 },
      'no-device': { count: 1, firstLine: 12 },
      'no-size': { count: 1, firstLine: 13 },
    });
    expect(converted.events).toEqual({ SYSTEM: 1, MALLOC: 8, FREE: 2, ACCESS: 1 });
    const placed = converted.halRows + converted.blockRows;
    const skipped = Object.values(converted.unplaced).reduce((sum, item) => sum + (item?.count ?? 0), 0);
    // outside-hal rows are in the trace (the log) and counted as unplaced on the page map: nothing else is lost.
    expect(placed + skipped - (converted.unplaced['outside-hal']?.count ?? 0)).toBe(converted.rows);
    expect(converted.rows).toBe(12);
  });

  it('the final state is the HAL allocations live at the end with their live blocks, so the import ends consistent', () => {
    expect(converted.snapshot.segments.map((segment) => [segment.device, segment.totalSize, segment.allocatedSize])).toEqual([
      [0, 20 * MiB, 2 * MiB],
      [1, 2 * MiB, 0],
    ]);
    const session = importSnapshot(converted.snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'memscope_dump_1.csv' });
    expect(session.finalMismatch).toBe(0);
    expect(session.inconsistent).toBe(0);
    // The HAL region is a modeled allocation of huge pages on device 0; the live blocks are in the block index.
    const allocations = [...session.final.allocations.values()];
    expect(allocations.map((a) => [a.device, a.size])).toEqual([
      [0, 20 * MiB],
      [1, 2 * MiB],
    ]);
    const blocks = session.blocks.all(0);
    expect(blocks).toHaveLength(3);
    expect(blocks.filter((block) => block.freeCompletedSeq === undefined).map((block) => block.size)).toEqual([2 * MiB, 512]);
    expect(blocks.find((block) => block.size === 512)?.addr).toBeUndefined();
    expect(session.events.some((event) => event.kind === 'call' && event.fn === 'segment_alloc' && event.provenance === 'observed')).toBe(
      true,
    );
  });

  it('reads the stack spellings it may meet', () => {
    expect(memScopeFrames('File "a.py", line 3, in f;b.py:4 g|weird')).toEqual([
      { filename: 'a.py', line: 3, name: 'f' },
      { filename: 'b.py', line: 4, name: 'g' },
      { filename: 'weird', line: 0, name: '' },
    ]);
    expect(memScopeFrames('N/A')).toEqual([]);
  });
});

/**
 * A long dump made row by row with what each row must become written down beside it, so the
 * converter is checked against the generator's own record, not against itself. Times jitter
 * backwards (rows are in ID order, threads are not), so the earliest row is not the first.
 */
function longDump(rows: number, seed: number) {
  let state = seed;
  const next = (): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  const lines = [HEADER];
  const expected: { action: string; addr: bigint; size: number; ns: bigint; stack: string }[][] = [[], []];
  const live: Map<bigint, number>[] = [new Map(), new Map()];
  const stacks = Array.from({ length: 50 }, (_, i) => `train.py(${i}): step\nmodel.py(${100 + i}): forward`);
  let ns = T0 + 123_456_789n;
  let minNs = ns;
  for (let device = 0; device < 2; device += 1) {
    const base = SEG + BigInt(device) * 0x10000000000n;
    lines.push(row(lines.length, 'MALLOC', 'HAL', Number(ns - T0), String(device), hex(base), `size:${64 * MiB}`));
    expected[device]?.push({ action: 'segment_alloc', addr: base, size: 64 * MiB, ns, stack: '' });
  }
  while (lines.length <= rows) {
    // Mostly forwards by up to 2 µs with odd ns; now and then a row stamped before its neighbours.
    ns += BigInt(Math.floor(next() * 2000) + 1);
    const at = next() < 0.01 ? ns - 5_000_000n : ns;
    if (at < minNs) minNs = at;
    const device = next() < 0.5 ? 0 : 1;
    const dt = Number(at - T0);
    const pick = next();
    if (pick < 0.05) {
      lines.push(row(lines.length, 'ACCESS', 'READ', dt, String(device), hex(SEG), 'size:4096'));
      continue;
    }
    const blocks = live[device] as Map<bigint, number>;
    const trace = expected[device] ?? [];
    const base = SEG + BigInt(device) * 0x10000000000n;
    if (pick < 0.55 || blocks.size === 0) {
      const addr = base + BigInt(Math.floor(next() * 16384)) * 4096n;
      if (blocks.has(addr)) continue;
      const size = 512 * (1 + Math.floor(next() * 8));
      const stack = stacks[Math.floor(next() * stacks.length)] ?? '';
      blocks.set(addr, size);
      lines.push(row(lines.length, 'MALLOC', 'PTA', dt, String(device), hex(addr), `size:${size}`, stack));
      trace.push({ action: 'alloc', addr, size, ns: at, stack });
    } else {
      const [addr, size] = blocks.entries().next().value as [bigint, number];
      blocks.delete(addr);
      lines.push(row(lines.length, 'FREE', 'PTA', dt, String(device), hex(addr), `size:${size}`));
      trace.push({ action: 'free_requested', addr, size, ns: at, stack: '' }, { action: 'free_completed', addr, size, ns: at, stack: '' });
    }
  }
  return { text: lines.join('\n'), expected, minNs, live };
}

describe('msMemScope dump converted row by row as it streams', () => {
  // Over 65,536 entries a device: the columns' chunks are crossed.
  const dump = longDump(160_000, 7);
  const bytes = new TextEncoder().encode(dump.text);
  const reader = memScopeDumpReader('memscope_dump_long.csv');
  for (let at = 0; at < bytes.length; at += 1 << 16) reader.push(bytes.subarray(at, at + (1 << 16)));
  const converted = reader.end();

  it('holds every entry the rows made, times in µs from the earliest row however late it came, stacks as written', () => {
    expect(converted.rows).toBe(160_000);
    dump.expected.forEach((want, device) => {
      const trace = converted.snapshot.deviceTraces[device];
      expect(trace?.length).toBe(want.length);
      expect(want.length).toBeGreaterThan(65_536);
      const got = Array.from(trace ?? [], (entry) => [entry.action, entry.addr, entry.size, entry.timeUs, entry.frames]);
      // Times exact: the bigint difference in ns, then µs, as one subtraction gives it.
      const wanted = want.map((e) => [e.action, e.addr, e.size, Number(e.ns - dump.minNs) / 1000, memScopeFrames(e.stack)]);
      expect(got).toEqual(wanted);
    });
    expect(dump.minNs).toBeLessThan(T0 + 123_456_789n);
  });

  it('ends with what is live, and converts as the rows read at once do', () => {
    const live = converted.snapshot.segments.map((segment) => [segment.device, segment.blocks.length, segment.allocatedSize]);
    expect(live).toEqual(
      dump.live.map((blocks, device) => [device, blocks.size, [...blocks.values()].reduce((sum, size) => sum + size, 0)]),
    );
    const atOnce = memScopeToSnapshot(readMemScopeEvents(dump.text, 'memscope_dump_long.csv'));
    expect(withArrays(atOnce.snapshot)).toEqual(withArrays(converted.snapshot));
    expect(converted.unplaced).toEqual({ 'not-malloc-free': expect.objectContaining({ firstLine: expect.any(Number) }) });
  });
});

describe("msMemScope's HAL page_type: the page size the driver's flags gave", () => {
  const GiB = 1024 * MiB;
  /** One HAL allocation of `size` with `pageType`, freed, then one more left live. */
  function halDump(pageType: string | undefined, size = 20 * MiB): string {
    const attr = (at: bigint, bytes: number) => `addr:${hex(at)},size:${bytes}${pageType === undefined ? '' : `,page_type:${pageType}`}`;
    return [
      HEADER,
      row(1, 'MALLOC', 'HAL', 1000, '0', hex(SEG), attr(SEG, size)),
      row(2, 'FREE', 'HAL', 2000, '0', hex(SEG), `size:${size}`),
      row(3, 'MALLOC', 'HAL', 3000, '0', hex(SEG + 0x80000000n), attr(SEG + 0x80000000n, size)),
    ].join('\n');
  }
  const pageEvents = (text: string, profile = ASCEND_910B2) => {
    const dump = readMemScopeDump(text);
    const session = importSnapshot(dump.snapshot, { profile, pageSize1g: false, name: 'memscope_dump_pages.csv' });
    const allocs = session.events.flatMap((event) => (event.kind === 'alloc' ? [event] : []));
    const calls = session.events.flatMap((event) => (event.kind === 'call' && event.fn === 'aclrtMallocAlign32' ? [event] : []));
    return { dump, session, allocs, calls };
  };

  it('a recorded page size is the one the model takes, where huge-first would have chosen another', () => {
    const { dump, allocs, calls } = pageEvents(halDump('normal'));
    expect(dump.halPagesRecorded).toBe(2);
    expect(dump.halPagesModeled).toBe(0);
    expect(allocs.map((event) => [event.pageClass, event.pages])).toEqual([
      ['normal', 5120],
      ['normal', 5120],
    ]);
    expect(calls[0]?.args).toMatchObject({ policy: 'ACL_MEM_MALLOC_NORMAL_ONLY', recordedPageType: 'normal' });
    expect(dump.snapshot.segments.map((segment) => segment.recordedPageClass)).toEqual(['normal']);
    // The same file without page_type: the model's huge-first choice, and no claim of a recorded size.
    const modeled = pageEvents(halDump(undefined));
    expect(modeled.dump.halPagesModeled).toBe(2);
    expect(modeled.allocs.map((event) => event.pageClass)).toEqual(['huge', 'huge']);
    expect(modeled.calls[0]?.args).not.toHaveProperty('recordedPageType');
  });

  it('giant pages where the profile has them; where it has none the model chooses, and says nothing was recorded', () => {
    expect(pageEvents(halDump('giant', GiB)).allocs.map((event) => [event.pageClass, event.pages])).toEqual([
      ['giant', 1],
      ['giant', 1],
    ]);
    const without = pageEvents(halDump('giant', GiB), ASCEND_310P3);
    expect(without.allocs.map((event) => event.pageClass)).toEqual(['huge', 'huge']);
    expect(without.calls[0]?.args).not.toHaveProperty('recordedPageType');
  });

  it('a value msMemScope does not write is not taken as a page size', () => {
    const { dump, allocs } = pageEvents(halDump('64k'));
    expect(dump.halPagesRecorded).toBe(0);
    expect(dump.halPagesModeled).toBe(2);
    expect(allocs.map((event) => event.pageClass)).toEqual(['huge', 'huge']);
  });

  it("the Perfetto export's page counters follow the recorded size up and back down", () => {
    const { dump } = pageEvents(halDump('normal'));
    const trace = toChromeTrace(dump.snapshot, { profile: ASCEND_910B2, pageSize1g: false });
    const pages = trace.traceEvents.filter((event) => event.name === 'pages (modeled)').map((event) => event.args);
    // The first sample is the state before the trace.
    expect(pages).toEqual([
      { normal: 0, huge: 0, giant: 0 },
      { normal: 20 * MiB, huge: 0, giant: 0 },
      { normal: 0, huge: 0, giant: 0 },
      { normal: 20 * MiB, huge: 0, giant: 0 },
    ]);
  });
});

describe('pinned host memory: HOST rows with pinned:true become host buffers of the model', () => {
  const PINNED = 0x7f10_0000_0000n;
  const dump = readMemScopeDump(
    [
      HEADER,
      row(1, 'MALLOC', 'HAL', 1000, '0', hex(SEG), `size:${2 * MiB}`),
      row(
        2,
        'MALLOC',
        'HOST',
        2000,
        'host',
        hex(PINNED),
        `allocation_id:1,addr:${hex(PINNED)},size:${4 * MiB},pinned:true,used:${4 * MiB}`,
      ),
      row(3, 'MALLOC', 'HOST', 2500, 'host', hex(PINNED + 0x1000000n), `size:${MiB},pinned:true`),
      // A CPU tensor's data: host memory no ACL call made, not placed.
      row(4, 'MALLOC', 'HOST', 3000, 'host', '0x7f2000000000', 'size:64,total:64'),
      row(5, 'FREE', 'HAL', 4000, '0', hex(SEG), `size:${2 * MiB}`),
      // The FREE's own Attr need not say pinned: it frees what the pinned MALLOC made.
      row(6, 'FREE', 'HOST', 5000, 'host', hex(PINNED), 'size:0'),
      row(7, 'FREE', 'HOST', 6000, 'host', '0x7f3000000000', 'pinned:true'),
    ].join('\n'),
  );

  it('the host trace holds the pinned rows in time order; the others are counted as before', () => {
    expect(dump.pinnedHostRows).toBe(3);
    expect(dump.snapshot.hostTraces?.map((e) => [e.action, e.addr, e.size, e.timeUs])).toEqual([
      ['segment_alloc', PINNED, 4 * MiB, 1],
      ['segment_alloc', PINNED + 0x1000000n, MiB, 1.5],
      ['segment_free', PINNED, 4 * MiB, 4],
    ]);
    expect(dump.unplaced).toEqual({ host: { count: 1, firstLine: 5 }, 'free-unknown': { count: 1, firstLine: 8 } });
    expect(dump.snapshot.formatEvidence).toContain('3 pinned host rows as host buffers');
  });

  it("in the session they are pinned host buffers, made and freed between the device's calls in time order", () => {
    const session = importSnapshot(dump.snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'memscope_dump.csv' });
    expect(session.inconsistent).toBe(0);
    const kinds = session.events
      .filter((e) => e.kind !== 'call' || e.provenance === 'observed')
      .map((e) => (e.kind === 'call' ? e.fn : e.kind));
    expect(kinds.slice(kinds.indexOf('segment_alloc'))).toEqual([
      'segment_alloc',
      'alloc',
      'segment_alloc',
      'hostAlloc',
      'segment_alloc',
      'hostAlloc',
      'segment_free',
      'free',
      'segment_free',
      'hostFree',
    ]);
    const buffers = [...session.final.hostBuffers.values()];
    expect(buffers.map((b) => [b.addr, b.size, b.memory, b.fn])).toEqual([[Number(PINNED + 0x1000000n), MiB, 'pinned', 'aclrtMallocHost']]);
    // The host call says it is the host's, with the recorded address and time.
    const call = session.events.find((e) => e.kind === 'call' && e.args.host === true);
    expect(call?.kind === 'call' && call.args).toEqual({ addr: hex(PINNED), size: 4 * MiB, host: true, time_us: 1 });
  });
});

describe('the kinds of row msMemScope versions write for handles and pinned memory', () => {
  const dump = readMemScopeDump(
    [
      HEADER,
      // A physical handle (halMemCreate): its Ptr is the handle; and an ordinary allocation.
      row(1, 'MALLOC', 'HAL', 1000, '0', '0x55d0c0a01000', `size:${20 * MiB},page_type:huge,alloc_type:create`),
      row(2, 'MALLOC', 'HAL', 2000, '0', hex(SEG), `size:${4 * MiB},page_type:huge,alloc_type:alloc`),
      // The output spec's Event Type HOST_PINNED, without pinned:true in Attr.
      row(3, 'MALLOC', 'HOST_PINNED', 3000, 'host', '0x7f1000000000', `size:${MiB},used:${MiB}`),
      row(4, 'FREE', 'HOST_PINNED', 4000, 'host', '0x7f1000000000', 'size:0'),
    ].join('\n'),
  );

  it('counts the create rows as physical handles, and reads HOST_PINNED as pinned host memory', () => {
    expect(dump.halHandles).toBe(1);
    expect(dump.halRows).toBe(2);
    expect(dump.pinnedHostRows).toBe(2);
    expect(dump.snapshot.hostTraces?.map((e) => e.action)).toEqual(['segment_alloc', 'segment_free']);
    expect(dump.unplaced).toEqual({});
  });
});
