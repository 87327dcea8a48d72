import { HUGE_FIRST_FALLBACK } from './huge-first-fallback.ts';
import { PAGEABLE_VS_PINNED } from './pageable-vs-pinned.ts';
import { POLICIES } from './policies.ts';
import type { Scenario } from './scenario.ts';
import { SEED_DEVICE_MEMORY } from './seed-device-memory.ts';
import { SEED_HOST_REGISTER } from './seed-host-register.ts';
import { SEED_PINNED_MEMORY } from './seed-pinned-memory.ts';
import { SEED_VMM } from './seed-vmm.ts';
import { STREAMS_AND_EVENTS } from './streams-and-events.ts';
import { VA_CONSISTENT_REGISTER } from './va-consistent-register.ts';
import { VMM_DEFERRED_FREE } from './vmm-deferred-free.ts';

/** Built-in scenarios in the order a playground lists them: the guide's samples first. */
export const SCENARIOS: readonly Scenario[] = [
  SEED_DEVICE_MEMORY,
  SEED_PINNED_MEMORY,
  SEED_HOST_REGISTER,
  SEED_VMM,
  POLICIES,
  HUGE_FIRST_FALLBACK,
  PAGEABLE_VS_PINNED,
  VA_CONSISTENT_REGISTER,
  VMM_DEFERRED_FREE,
  STREAMS_AND_EVENTS,
];

export function scenarioById(id: string): Scenario | undefined {
  return SCENARIOS.find((scenario) => scenario.id === id);
}
