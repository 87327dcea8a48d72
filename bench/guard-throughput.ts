/**
 * Micro-benchmark of the bulk path's fast guards (core's protocol/fast-agent-message.ts): how long
 * `isBulkAgentMessage` takes over recorded messages, without a browser or a socket. The figures of
 * `pnpm bench:run web-ingest` include this cost among much else; this isolates it.
 *
 * Run: `pnpm exec tsx bench/guard-throughput.ts [other-module.ts]`. With a second module that exports
 * `isBulkAgentMessage` (for example a copy of an earlier version of the guards), both are timed in
 * alternating rounds over the same values, so that the comparison shares the machine's state.
 *
 * Recorded: event batches of 2,000 (the agent's frame) from aclrtMalloc/aclrtFree, as the agent and
 * web-ingest suites load it; batches of every kind the simulator emits; and one snapshot of 20,000
 * live allocations. The values are parsed from JSON once; only the guard is timed. Each line gives
 * the fastest pass (the one least disturbed by whatever else the machine runs) and the median pass.
 */
import { ASCEND_910B2, encodeSnapshot, type Hex, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import { isBulkAgentMessage } from '../packages/core/src/protocol/fast-agent-message.ts';

type Check = (value: unknown) => boolean;

const BATCH = 2000;
const MiB = 1024 * 1024;
/** Timed passes per candidate and workload, after three that warm the JIT up. */
const ROUNDS = 30;

function batchesOf(events: readonly MemoryEvent[]): unknown[] {
  const messages: unknown[] = [];
  for (let at = 0; at + BATCH <= events.length; at += BATCH) {
    const chunk = events.slice(at, at + BATCH);
    messages.push(JSON.parse(JSON.stringify({ type: 'events', from: chunk[0]?.seq, to: chunk.at(-1)?.seq, events: chunk })));
  }
  return messages;
}

/** aclrtMalloc/aclrtFree of 4–256 KiB NORMAL_ONLY with about 2,000 live (bench/support/recorded-feed.ts). */
async function mallocFreeBatches(events: number): Promise<unknown[]> {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const runtime = new SimRuntime(host);
  await runtime.aclInit({ configPath: null });
  await runtime.aclrtSetDevice({ deviceId: 0 });
  const recorded: MemoryEvent[] = [];
  host.subscribe((batch) => {
    for (const event of batch) recorded.push(event);
  });
  const live: Hex[] = [];
  for (let call = 0; recorded.length < events; call += 1) {
    const devPtr = live.length > 2000 || (live.length > 0 && call % 2 === 1) ? live.pop() : undefined;
    if (devPtr !== undefined) await runtime.aclrtFree({ devPtr });
    else {
      const out = await runtime.aclrtMalloc({ size: 4096 * (1 + (call % 64)), policy: 3 });
      if (out.devPtr !== undefined) live.push(out.devPtr);
    }
  }
  return batchesOf(recorded);
}

/** Device, host, copy, stream and VMM calls, repeated: about twenty kinds of event. */
async function mixedBatches(events: number): Promise<unknown[]> {
  const host = new SimHost({ seed: 7 });
  const recorded: MemoryEvent[] = [];
  host.subscribe((batch) => {
    for (const event of batch) recorded.push(event);
  });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const NULL: Hex = '0x0';
  const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 };
  while (recorded.length < events) {
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
    const handle = (await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).handle ?? NULL;
    const virPtr = (await rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: NULL, flags: 0 })).virPtr ?? NULL;
    await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
    await rt.aclrtMemSetAccess({ virPtr, size: 2 * MiB, desc: [{ flags: 3, location: { type: 1, id: 0 } }], count: 1 });
    await rt.aclrtUnmapMem({ virPtr });
    await rt.aclrtReleaseMemAddress({ virPtr });
    await rt.aclrtFreePhysical({ handle });
    await rt.aclrtHostUnregister({ ptr: pageable });
    await rt.free({ ptr: pageable });
    await rt.aclrtFreeHost({ hostPtr: pinned });
    for (const devPtr of devPtrs) await rt.aclrtFree({ devPtr });
  }
  return batchesOf(recorded);
}

/** One snapshot message of `count` live allocations of mixed sizes and policies. */
async function snapshotMessage(count: number): Promise<unknown> {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  for (let i = 0; i < count; i += 1) await rt.aclrtMalloc({ size: 4096 * (1 + (i % 37)), policy: i % 4 === 0 ? 0 : 3 });
  return JSON.parse(JSON.stringify({ type: 'snapshot', seq: host.state.seq, reset: false, snapshot: encodeSnapshot(host.state) }));
}

interface Workload {
  readonly name: string;
  readonly messages: readonly unknown[];
  /** What one pass counts: events, or snapshot rows. */
  readonly items: number;
  readonly unit: string;
}

/**
 * CPU nanoseconds per item of one pass of `check` over the workload's messages (all must be
 * accepted). CPU time rather than wall time: on a busy machine the process is descheduled for
 * stretches that have nothing to do with the guard.
 */
function pass(check: Check, workload: Workload): number {
  const started = process.cpuUsage();
  for (const message of workload.messages) if (!check(message)) throw new Error(`${workload.name}: a recorded message was refused`);
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / workload.items;
}

const quantile = (values: readonly number[], q: number): number =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * q)] ?? Number.NaN;

async function main(): Promise<void> {
  const candidates: { name: string; check: Check }[] = [{ name: 'this tree', check: isBulkAgentMessage }];
  const other = process.argv[2];
  if (other !== undefined) {
    const module: unknown = await import(new URL(other, `file://${process.cwd()}/`).href);
    const check: unknown = Reflect.get(Object(module), 'isBulkAgentMessage');
    if (typeof check !== 'function') throw new Error(`${other} does not export isBulkAgentMessage`);
    candidates.push({ name: other, check: (value) => Reflect.apply(check, undefined, [value]) === true });
  }
  const mallocFree = await mallocFreeBatches(200_000);
  const mixed = await mixedBatches(100_000);
  const snapshot = await snapshotMessage(20_000);
  const rows = (message: unknown): number => {
    const tables: unknown = Reflect.get(Object(Reflect.get(Object(message), 'snapshot')), 'allocations');
    return Array.isArray(tables) ? tables.length : 0;
  };
  const workloads: Workload[] = [
    { name: 'malloc/free event batches', messages: mallocFree, items: mallocFree.length * BATCH, unit: 'event' },
    { name: 'mixed-kind event batches', messages: mixed, items: mixed.length * BATCH, unit: 'event' },
    { name: 'snapshot, 20,000 allocations', messages: [snapshot], items: rows(snapshot), unit: 'row' },
  ];
  for (const workload of workloads) {
    const times = candidates.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS + 3; round += 1) {
      // Alternating which candidate goes first, so that neither always follows the other's garbage.
      const order = round % 2 === 0 ? candidates.keys() : [...candidates.keys()].reverse();
      for (const index of order) {
        const candidate = candidates[index];
        const ns = candidate === undefined ? Number.NaN : pass(candidate.check, workload);
        if (round >= 3) times[index]?.push(ns);
      }
    }
    for (const [index, candidate] of candidates.entries()) {
      const best = quantile(times[index] ?? [], 0);
      const median = quantile(times[index] ?? [], 0.5);
      const perSecond = (1e9 / best).toLocaleString('en-US', { maximumFractionDigits: 0 });
      process.stdout.write(
        `${workload.name.padEnd(30)} ${candidate.name.padEnd(40)} best ${best.toFixed(1).padStart(7)} ns/${workload.unit} (${perSecond}/s), median ${median.toFixed(1)}\n`,
      );
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`guard-throughput failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
