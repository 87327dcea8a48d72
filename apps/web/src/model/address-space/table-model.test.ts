import { beforeAll, describe, expect, it } from 'vitest';
import { type AddressScene, addressScene, MiB } from '../../../test/address-space-scene.ts';
import { ipcScene } from '../../../test/ipc-scene.ts';
import { scrollToRow } from '../log/windowing.ts';
import { buildRows, frameRuns, type MappingRow, rowTarget } from './table-rows.ts';
import { applyQuery, DEFAULT_QUERY, filterWords, moveActive, rowSearchText, toggleSort, virtualWindow } from './table-view.ts';

let scene: AddressScene;
let rows: MappingRow[];
beforeAll(async () => {
  scene = await addressScene();
  rows = buildRows(scene.state, 0, scene.pid);
});

describe('rows from a state', () => {
  it('one row per allocation, mapping and reservation of the process, in address order', () => {
    expect(rows.map((r) => r.kind)).toEqual(['allocation', 'allocation', 'reservation', 'mapping']);
    expect(rows.map((r) => r.start)).toEqual([scene.huge, scene.small, scene.virPtr, scene.virPtr]);
  });

  it('an allocation row covers its whole pages and names its frames', () => {
    const huge = rows[0];
    if (huge?.kind !== 'allocation') throw new Error('expected the huge allocation first');
    expect(huge.size).toBe(4 * MiB); // 3 MiB in two 2 MiB huge pages (DM-11)
    expect(huge.pageClass).toBe('huge');
    expect(huge.pages).toBe(2);
    expect(huge.fn).toBe('aclrtMalloc');
    const frames = frameRuns(huge, huge.pagesPerFrame);
    expect(frames).toHaveLength(1);
    expect((frames[0]?.[1] ?? 0) - (frames[0]?.[0] ?? 0)).toBe(1);
  });

  it('a mapping row carries its handle, page size and (no) access grants; the reservation its unmapped rest', () => {
    const mapping = rows[3];
    const reservation = rows[2];
    if (mapping?.kind !== 'mapping' || reservation?.kind !== 'reservation') throw new Error('unexpected rows');
    expect(mapping.handleValue).toBe(scene.handle);
    expect(mapping.pageSize).toBe(2 * MiB);
    expect(mapping.access).toEqual([]);
    expect(reservation.unmapped).toBe(2 * MiB);
    expect(reservation.mappings).toBe(1);
  });

  it('another process sees only its own rows', () => {
    const other = buildRows(scene.state, 0, scene.otherPid);
    expect(other.map((r) => [r.kind, r.start])).toEqual([['allocation', scene.otherAlloc]]);
    expect(buildRows(scene.state, 1, scene.pid)).toEqual([]);
  });

  it('normal-page runs become frame ranges, neighbours joined', () => {
    expect(frameRuns({ runs: [0, 10, 10, 600, 2048, 1], pageClass: 'normal' }, 512)).toEqual([
      [0, 1],
      [4, 4],
    ]);
    expect(frameRuns({ runs: [100, 2, 200, 1], pageClass: 'huge' }, 512)).toEqual([
      [100, 101],
      [200, 200],
    ]);
  });
});

describe('sorting and filtering', () => {
  it('sorts by size, largest first, and by address both ways', () => {
    const bySize = applyQuery(rows, toggleSort(DEFAULT_QUERY, 'size'));
    expect(bySize.map((r) => r.size)).toEqual([4 * MiB, 4 * MiB, 2 * MiB, 68 * 1024]);
    const asc = applyQuery(rows, toggleSort(toggleSort(DEFAULT_QUERY, 'size'), 'size'));
    expect(asc[0]?.size).toBe(68 * 1024);
    const desc = applyQuery(rows, toggleSort(DEFAULT_QUERY, 'address'));
    expect(desc.map((r) => r.kind)).toEqual(['mapping', 'reservation', 'allocation', 'allocation']);
  });

  it('filters by any words: kind, fn, hex address with underscores, handle', () => {
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: 'aclrtMapMem' }).map((r) => r.kind)).toEqual(['mapping']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: 'normal' }).map((r) => r.start)).toEqual([scene.small]);
    const hex = `0x${scene.virPtr.toString(16)}`;
    const grouped = `${hex.slice(0, 6)}_${hex.slice(6)}`;
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: grouped })).toHaveLength(2);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: `0x${scene.handle.toString(16)}` }).map((r) => r.kind)).toEqual(['mapping']);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: 'alloc huge' })).toHaveLength(1);
    expect(applyQuery(rows, { ...DEFAULT_QUERY, filter: 'nothing-like-this' })).toHaveLength(0);
    expect(filterWords('  A_b  c ')).toEqual(['ab', 'c']);
  });
});

describe('virtual window math', () => {
  it('renders only the rows in view plus overscan', () => {
    expect(virtualWindow(0, 260, 26, 100_000, 5)).toEqual({ first: 0, last: 15, offset: 0, total: 2_600_000 });
    const middle = virtualWindow(26 * 5000 + 13, 260, 26, 100_000, 5);
    expect(middle.first).toBe(4995);
    expect(middle.last).toBe(5016);
    expect(middle.offset).toBe(4995 * 26);
  });

  it('clamps a scroll past the end and handles an empty table', () => {
    const end = virtualWindow(1e9, 260, 26, 1000, 0);
    expect(end.last).toBe(1000);
    expect(end.first).toBe(990);
    expect(virtualWindow(0, 260, 26, 0)).toEqual({ first: 0, last: 0, offset: 0, total: 0 });
  });

  it('scrolls just enough to show a row', () => {
    expect(scrollToRow(3, 0, 260, 26)).toBe(0);
    expect(scrollToRow(20, 0, 260, 26)).toBe(21 * 26 - 260);
    expect(scrollToRow(2, 520, 260, 26)).toBe(52);
  });

  it('keys move the active row within the table', () => {
    expect(moveActive('ArrowDown', 0, 10, 5)).toBe(1);
    expect(moveActive('ArrowUp', 0, 10, 5)).toBe(0);
    expect(moveActive('End', 0, 10, 5)).toBe(9);
    expect(moveActive('Home', 7, 10, 5)).toBe(0);
    expect(moveActive('PageDown', 7, 10, 5)).toBe(9);
    expect(moveActive('PageUp', 7, 10, 5)).toBe(2);
    expect(moveActive('x', 7, 10, 5)).toBeUndefined();
    expect(moveActive('ArrowDown', 0, 0, 5)).toBeUndefined();
  });
});

describe('IPC imports in the table (IP-3)', () => {
  it('an import is a row of the importer: the exporter’s pages, found by its key, selecting the exported allocation', async () => {
    const { host, exporter, importer, key, addr, source } = await ipcScene();
    const [row, ...others] = buildRows(host.state, 0, importer.pid);
    expect(others).toEqual([]);
    expect(row).toMatchObject({
      kind: 'ipcImport',
      start: addr,
      size: 4 * MiB,
      color: source?.id,
      source: source?.id,
      exporter: exporter.pid,
      key,
      pageClass: source?.pageClass,
      pageSize: source?.pageSize,
    });
    if (row === undefined) throw new Error('no row');
    expect(rowTarget(row)).toEqual({ kind: 'allocation', id: source?.id });
    expect(rowSearchText(row)).toContain(key.toLowerCase());
    expect(rowSearchText(row)).toContain('aclrtipcmemimportbykey');
    // The exporter's table has its allocation only.
    expect(buildRows(host.state, 0, exporter.pid).map((item) => item.kind)).toEqual(['allocation']);
  });
});
