import { expect } from 'vitest';
import { aclrtMemMallocPolicy } from '../../src/acl/enums.ts';
import type { AllocEvent, MemoryEvent, Reason } from '../../src/model/events.ts';
import { allocationReasons } from '../../src/model/malloc-policy.ts';
import type { DeviceAllocation, DeviceState, HostBuffer } from '../../src/model/state.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { loadProfileJson } from '../../src/profiles/load.ts';
import type { DeviceProfile } from '../../src/profiles/profile.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { parseHex } from '../../src/units/hex.ts';

/** Shared set-up for the rule-by-rule tests: a simulated host, one process, device 0 set. */

export const POLICY = aclrtMemMallocPolicy.byName;

export interface Session {
  readonly host: SimHost;
  readonly rt: SimRuntime;
  readonly device: DeviceState;
  /** Every event the host emitted, in order. */
  readonly events: MemoryEvent[];
}

/** A host with `devices`, one initialised process with device 0 current. */
export async function session(devices: readonly DeviceProfile[] = [ASCEND_910B2], seed = 1): Promise<Session> {
  const host = new SimHost({ devices, seed });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
  expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
  return { host, rt, device: need(host.state.devices[0], 'device 0'), events };
}

/** A second process on the same host, initialised with device 0 current. */
export async function otherProcess(host: SimHost, name = 'other'): Promise<SimRuntime> {
  const rt = new SimRuntime(host, name);
  expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
  expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
  return rt;
}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

/** A profile from JSON (usually `{"extends": …}`), or the test fails. */
export function profileFrom(json: string): DeviceProfile {
  const loaded = loadProfileJson(json, 'test profile');
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.profile;
}

export function addressOf(ptr: string | undefined): number {
  const parsed = parseHex(need(ptr, 'pointer'));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

/** The live device allocation that starts at `ptr`. */
/** The profile of the device each allocation returned by allocationAt lives on, for rebuilding its reasons. */
const profiles = new WeakMap<DeviceAllocation, DeviceProfile>();

export function allocationAt(host: SimHost, ptr: string | undefined): DeviceAllocation {
  const addr = addressOf(ptr);
  const found = need(
    [...host.state.allocations.values()].find((a) => a.addr === addr),
    `allocation at ${ptr}`,
  );
  const profile = host.state.devices[found.device]?.profile;
  if (profile !== undefined) profiles.set(found, profile);
  return found;
}

/** An allocation's decision, rebuilt from its facts (events carry no explanations). */
export function reasonsOf(allocation: DeviceAllocation): Reason[] {
  return allocationReasons(allocation, need(profiles.get(allocation), 'the profile of an allocation from allocationAt'));
}

export function hostBufferAt(host: SimHost, ptr: string | undefined): HostBuffer {
  const addr = addressOf(ptr);
  const found = [...host.state.hostBuffers.values()].find((b) => b.addr === addr);
  return need(found, `host buffer at ${ptr}`);
}

/** The reason codes of a result, call event or allocation. */
export function codes(item: { readonly reasons?: readonly { readonly code: string }[] } | DeviceAllocation): string[] {
  const reasons = 'padded' in item ? reasonsOf(item) : (item.reasons ?? []);
  return reasons.map((reason) => reason.code);
}

/** The reasons of the last call event (a failed call's reasons live only there). */
export function lastCallReasons(events: readonly MemoryEvent[]): string[] {
  const call = [...events].reverse().find((event) => event.kind === 'call');
  return call === undefined ? [] : codes(call);
}

export function allocEvents(events: readonly MemoryEvent[]): AllocEvent[] {
  return events.filter((event): event is AllocEvent => event.kind === 'alloc');
}

/** Event kinds after index `from`, without the call events. */
export function effectKinds(events: readonly MemoryEvent[], from = 0): string[] {
  return events.slice(from).flatMap((event) => (event.kind === 'call' ? [] : [event.kind]));
}
