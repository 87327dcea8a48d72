import { aclrtMemMallocPolicy, MEM_POLICY_MASK } from '../acl/enums.ts';
import type { AllocEvent, CallEvent, MemoryEvent } from '../model/events.ts';
import { type BasePolicyKey, basePolicy, isMallocFn, type MallocFn, paddedSize } from '../model/malloc-policy.ts';
import type { CopyRecord, DeviceState } from '../model/state.ts';
import type { LessonWorld } from './lesson.ts';

/** Small readers of a lesson world that the goals share. */

export function eventsOf<K extends MemoryEvent['kind']>(world: LessonWorld, kind: K): Extract<MemoryEvent, { kind: K }>[] {
  return world.events.filter((event): event is Extract<MemoryEvent, { kind: K }> => event.kind === kind);
}

/** The base policy of a policy value (hint bits dropped), as its short key: "HUGE_FIRST". */
export function policyKey(policy: unknown): BasePolicyKey | undefined {
  const value = typeof policy === 'string' ? aclrtMemMallocPolicy.valueOf(policy) : policy;
  return typeof value === 'number' ? basePolicy(value & MEM_POLICY_MASK)?.key : undefined;
}

export interface AllocQuery {
  readonly fn?: MallocFn;
  readonly policy?: BasePolicyKey;
  readonly size?: number;
  readonly pageClass?: AllocEvent['pageClass'];
  readonly pages?: number;
}

/** Allocations of the aclrtMalloc family made so far (freed ones too) that match every field given. */
export function allocs(world: LessonWorld, query: AllocQuery = {}): AllocEvent[] {
  return eventsOf(world, 'alloc').filter(
    (a) =>
      (query.fn === undefined || a.fn === query.fn) &&
      (query.policy === undefined || policyKey(a.policy) === query.policy) &&
      (query.size === undefined || a.size === query.size) &&
      (query.pageClass === undefined || a.pageClass === query.pageClass) &&
      (query.pages === undefined || a.pages === query.pages),
  );
}

/** Calls of the aclrtMalloc family with a base policy, whatever they answered. */
export function mallocCalls(world: LessonWorld, policy: BasePolicyKey): CallEvent[] {
  return eventsOf(world, 'call').filter((call) => isMallocFn(call.fn) && policyKey(call.args.policy) === policy);
}

export function deviceOf(world: LessonWorld, id: number): DeviceState | undefined {
  return world.state.devices[id];
}

/** The allocation is the largest of its function and policy whose padded size stays within `limit` (DM-3). */
export function largestWithin(world: LessonWorld, a: AllocEvent, limit: number): boolean {
  const device = deviceOf(world, a.device);
  if (device === undefined || !isMallocFn(a.fn)) return false;
  const base = a.policy & MEM_POLICY_MASK;
  return a.padded <= limit && paddedSize(a.fn, a.size + 1, base, device.profile.padding) > limit;
}

export function copies(world: LessonWorld): readonly CopyRecord[] {
  return world.state.copies;
}
