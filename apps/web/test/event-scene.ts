import { aclrtMemcpyKind, type Hex, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';

const MiB = 1024 * 1024;

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

export interface EventScene {
  readonly host: SimHost;
  readonly rt: SimRuntime;
  readonly events: MemoryEvent[];
  readonly pid: number;
  /** aclrtStream values. */
  readonly streams: { readonly copies: Hex; readonly waiter: Hex };
  /** aclrtEvent values. */
  readonly aclEvents: { readonly done: Hex; readonly idle: Hex };
  /** aclrtContext value of the created context. */
  readonly context: Hex;
}

/**
 * A simulated host (seed 1): device 0 set (its default context), a created context made current,
 * two streams in it, a 64 MiB pinned async copy on the first, `done` recorded after it, the second
 * stream waiting on `done` (EV-2, EV-3), and `idle`, made but never recorded. No synchronize: at
 * the end the copy's work is still running.
 */
export async function eventScene(): Promise<EventScene> {
  const host = new SimHost({ seed: 1 });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const context = need((await rt.aclrtCreateContext({ deviceId: 0 })).context, 'context');
  const copies = need((await rt.aclrtCreateStream({})).stream, 'stream');
  const waiter = need((await rt.aclrtCreateStream({})).stream, 'waiter');
  const size = 64 * MiB;
  const pinned = need((await rt.aclrtMallocHost({ size })).hostPtr, 'pinned');
  const dev = need((await rt.aclrtMalloc({ size, policy: 0 })).devPtr, 'dev');
  await rt.aclrtMemcpyAsync({
    dst: dev,
    destMax: size,
    src: pinned,
    count: size,
    kind: aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE,
    stream: copies,
  });
  const done = need((await rt.aclrtCreateEvent({})).event, 'done');
  await rt.aclrtRecordEvent({ event: done, stream: copies });
  await rt.aclrtStreamWaitEvent({ stream: waiter, event: done });
  const idle = need((await rt.aclrtCreateEvent({})).event, 'idle');
  return { host, rt, events, pid: rt.pid, streams: { copies, waiter }, aclEvents: { done, idle }, context };
}
