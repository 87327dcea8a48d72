import { describe, expect, it } from 'vitest';
import { aclrtMemMallocPolicy } from '../acl/enums.ts';
import type { MemoryEvent } from '../model/events.ts';
import { SimHost } from './sim-host.ts';
import { SimRuntime } from './sim-runtime.ts';

const POLICY = aclrtMemMallocPolicy.byName;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The hot events are built as whole literals (the stamp fields placed at the end for emit to fill,
 * the call event's optional fields chosen by shape) instead of a base literal with fields added one
 * by one. Field order reaches the log and the wire, so each shape must list exactly the fields, in
 * exactly the order, that adding them one by one gave.
 */
const STAMP = ['seq', 't', 'provenance', 'call'];
const ALLOC = ['kind', 'pid', 'device', 'id', 'fn', 'addr', 'size', 'padded', 'policy', 'p2p', 'pageClass', 'pageSize', 'pages', 'runs'];
const CALL = ['kind', 'seq', 't', 'provenance', 'pid', 'fn', 'args', 'ret', 'durationNs'];

async function session(): Promise<{ host: SimHost; rt: SimRuntime; events: MemoryEvent[] }> {
  const host = new SimHost();
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  events.length = 0;
  return { host, rt, events };
}

const fields = (events: readonly MemoryEvent[]) => events.map((event) => [event.kind, Object.keys(event)]);

describe('event fields of the hot path', () => {
  it('aclrtMalloc and aclrtFree: call, alloc and free events in the order of the plain definition', async () => {
    const { rt, events } = await session();
    const { devPtr } = await rt.aclrtMalloc({ size: 4096, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    await rt.aclrtFree({ devPtr: devPtr ?? '0x0' });
    expect(fields(events)).toEqual([
      ['call', [...CALL, 'out']],
      ['alloc', [...ALLOC, ...STAMP]],
      ['call', CALL],
      ['free', ['kind', 'id', ...STAMP]],
    ]);
    expect(events[1]).toMatchObject({ seq: (events[0]?.seq ?? 0) + 1, provenance: 'simulated', call: events[0]?.seq });
  });

  it('a fallback sits between runs and the stamp fields', async () => {
    const { rt, events } = await session();
    await rt.aclrtMallocAlign32({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY });
    await rt.aclrtMallocAlign32({ size: 64 * GiB - 4 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY });
    events.length = 0;
    await rt.aclrtMalloc({ size: 2 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    expect(fields(events)).toEqual([
      ['call', [...CALL, 'out']],
      ['alloc', [...ALLOC, 'fallback', ...STAMP]],
    ]);
  });

  it('failures: a message and its code; reasons after them; out before them; injected last', async () => {
    const { host, rt, events } = await session();
    await rt.aclrtFree({ devPtr: '0x1234' });
    await rt.aclrtMalloc({ size: 0, policy: 0 });
    host.injectFailure({ ret: 507899, fn: 'aclrtMalloc' });
    await rt.aclrtMalloc({ size: 4096, policy: 0 });
    expect(fields(events)).toEqual([
      ['call', [...CALL, 'message', 'messageCode']],
      ['call', [...CALL, 'message', 'messageCode', 'reasons']],
      ['call', [...CALL, 'message', 'messageCode', 'injected']],
    ]);
  });
});
