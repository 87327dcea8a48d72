import { ASCEND_910B2, MiB, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { type CopyBuffer, copyBuffers, copyNotes, defaultCount, memcpyCall, suggestKind } from './memcpy.ts';

const host = (size: number, pinned: boolean): CopyBuffer => ({
  key: `host:${size}`,
  side: 'host',
  kind: 'host',
  id: 1,
  addr: 0x1000,
  size,
  pinned,
  fn: 'malloc',
});
const dev = (size: number): CopyBuffer => ({
  key: `allocation:${size}`,
  side: 'device',
  kind: 'allocation',
  id: 2,
  addr: 0x100000000000,
  size,
  device: 0,
  fn: 'aclrtMalloc',
});

describe('memcpy form model', () => {
  it('suggests the kind from the pair (CP-2)', () => {
    expect(suggestKind(dev(1), host(1, true))).toBe(1);
    expect(suggestKind(host(1, true), dev(1))).toBe(2);
    expect(suggestKind(dev(1), dev(2))).toBe(3);
    expect(suggestKind(host(1, true), host(2, false))).toBe(0);
  });

  it('defaults the count to the smaller buffer', () => {
    expect(defaultCount(dev(4 * MiB), host(MiB, true))).toBe(MiB);
  });

  it('builds aclrtMemcpy, or aclrtMemcpyAsync with the stream; destMax is the destination size', () => {
    expect(memcpyCall({ dst: dev(2 * MiB), src: host(MiB, true), count: MiB, kind: 1 })).toEqual({
      fn: 'aclrtMemcpy',
      args: { dst: '0x100000000000', destMax: 2 * MiB, src: '0x1000', count: MiB, kind: 1 },
    });
    expect(memcpyCall({ dst: dev(MiB), src: host(MiB, true), count: MiB, kind: 1, stream: '0xabc' }).fn).toBe('aclrtMemcpyAsync');
  });

  it('warns about pageable staging and counts larger than a buffer (HM-1, CP-1)', () => {
    expect(copyNotes({ dst: dev(MiB), src: host(MiB, false), count: MiB })).toEqual(['pageable']);
    expect(copyNotes({ dst: dev(MiB), src: host(MiB, true), count: 2 * MiB })).toEqual(['too-large']);
    expect(copyNotes({ dst: dev(MiB), src: host(MiB, true), count: MiB })).toEqual([]);
  });

  it('lists device allocations, mappings and host buffers of the process, newest first', async () => {
    const sim = new SimHost({ devices: [ASCEND_910B2] });
    const me = new SimRuntime(sim, 'me');
    const other = new SimRuntime(sim, 'other');
    await me.aclrtSetDevice({ deviceId: 0 });
    await other.aclrtSetDevice({ deviceId: 0 });
    await me.aclrtMalloc({ size: MiB, policy: 0 });
    await other.aclrtMalloc({ size: MiB, policy: 0 });
    await me.aclrtMallocHost({ size: MiB });
    const buffers = copyBuffers(sim.state, me.pid);
    expect(buffers.map((b) => [b.side, b.fn, b.pinned])).toEqual([
      ['host', 'aclrtMallocHost', true],
      ['device', 'aclrtMalloc', undefined],
    ]);
    expect(copyBuffers(sim.state, undefined)).toHaveLength(3);
  });
});
