import { ASCEND_910B2, createHostState, type HostState, type MemoryEvent, reduce } from '@pagelens/core';

/*
 * What the acl backend streams, written out by hand: observed events, allocations with no frame
 * runs (ACL does not report frames), the pool that served each one as a reason on its call, and
 * aclrtGetMemInfo pool samples. Numbers are arbitrary but consistent (a TEST scene, not hardware).
 */

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export interface AclScene {
  readonly state: HostState;
  readonly events: MemoryEvent[];
  eventAt(seq: number): MemoryEvent | undefined;
  /** An aclrtMalloc the huge pool served, seen as a drop of its free bytes (evidence "pool-delta"). */
  malloc(size: number, pages: number): number;
  sample(hugeFree: number, ownBytes: number): void;
}

export function aclScene(): AclScene {
  const state = createHostState([ASCEND_910B2, ASCEND_910B2]);
  const events: MemoryEvent[] = [];
  let seq = 0;
  let id = 0;
  const push = (event: MemoryEvent) => {
    reduce(state, event);
    events.push(event);
  };
  const base = () => ({ seq: ++seq, t: seq * 1000, provenance: 'observed' as const });
  push({ ...base(), kind: 'process', pid: 1, name: 'session s1 (agent pid 42)' });
  return {
    state,
    events,
    eventAt: (at) => events.find((event) => event.seq === at),
    malloc(size, pages) {
      const call = base();
      push({
        ...call,
        kind: 'call',
        pid: 1,
        fn: 'aclrtMalloc',
        args: { size, policy: 0 },
        ret: 0,
        durationNs: 20_000,
        reasons: [
          { code: 'observed-pool', rules: ['DM-15'], values: { pageClass: 'huge', evidence: 'pool-delta', freeDrop: pages * 2 * MiB } },
        ],
      });
      id += 1;
      push({
        ...base(),
        call: call.seq,
        kind: 'alloc',
        pid: 1,
        device: 0,
        id,
        fn: 'aclrtMalloc',
        addr: 0x7f00_0000_0000 + id * 64 * MiB,
        size,
        padded: size + 32,
        policy: 0,
        p2p: false,
        pageClass: 'huge',
        pageSize: 2 * MiB,
        pages,
        runs: [],
      });
      return id;
    },
    sample(hugeFree, ownBytes) {
      push({
        ...base(),
        kind: 'poolSample',
        device: 0,
        pools: {
          normal: { free: 8 * GiB, total: 8 * GiB },
          huge: { free: hugeFree, total: 48 * GiB },
          giant: { free: 8 * GiB, total: 8 * GiB },
          all: { free: 16 * GiB + hugeFree, total: 64 * GiB },
        },
        ownBytes,
      });
    },
  };
}
