import { BUILTIN_PROFILE_NAMES, findProfile } from '../profiles/builtin.ts';
import { type DeviceProfile, SIMULATED_DEVICES } from '../profiles/profile.ts';

/**
 * The host a scenario was written for: what its designed outcome assumes. A playground offers to
 * reset the session's host to exactly this before the scenario runs.
 */
export interface ScenarioHost {
  /** A built-in profile's name (BUILTIN_PROFILE_NAMES); every device is of that model. */
  readonly profile: string;
  /** How many simulated devices, SIMULATED_DEVICES.min to .max. */
  readonly devices: number;
  /**
   * True when the outcome holds only on a host nothing ran on since its last reset: what is left
   * on the device (a buffer splitting a huge page, a full pool) changes which pages a call gets.
   */
  readonly fresh: boolean;
}

/** What the page knows of the host it is connected to. */
export interface CurrentHost {
  /** Each device's profile name, in device order. */
  readonly profiles: readonly string[];
  /** ACL calls on this host since its last reset; 0 for a host nothing ran on. */
  readonly callsSinceReset: number;
}

/** One way the current host differs from the one a scenario declares, for the playground to show. */
export type HostDifference =
  | { readonly kind: 'profile'; readonly wanted: string; readonly actual: readonly string[] }
  | { readonly kind: 'devices'; readonly wanted: number; readonly actual: number }
  | { readonly kind: 'used'; readonly calls: number };

/** The canonical spelling of a profile name ("910b2" → "Ascend910B2"); unknown names stay as they are. */
function canonical(name: string): string {
  return findProfile(name)?.name ?? name;
}

/** Why a host declaration is not one a reset can give, or undefined when it is. */
export function scenarioHostProblem(host: ScenarioHost): string | undefined {
  if (findProfile(host.profile)?.name !== host.profile) {
    return `unknown profile "${host.profile}"; a scenario's host may name ${BUILTIN_PROFILE_NAMES.join(', ')}`;
  }
  const { min, max } = SIMULATED_DEVICES;
  if (!Number.isInteger(host.devices) || host.devices < min || host.devices > max) {
    return `devices ${host.devices} is out of range; a simulated host has ${min} to ${max} devices`;
  }
  return undefined;
}

/** The device profiles of the declared host, one per device: what a simulated host is built from. */
export function declaredDevices(host: ScenarioHost): DeviceProfile[] {
  const problem = scenarioHostProblem(host);
  const profile = findProfile(host.profile);
  if (problem !== undefined || profile === undefined) throw new RangeError(problem ?? `unknown profile "${host.profile}"`);
  return Array.from({ length: host.devices }, () => profile);
}

/**
 * How `current` differs from the host `wanted` declares, in the order a reader checks them
 * (model, device count, leftovers); empty when the scenario can run as designed. A used host
 * matters only to a scenario that needs a fresh one.
 */
export function hostDifferences(wanted: ScenarioHost, current: CurrentHost): HostDifference[] {
  const differences: HostDifference[] = [];
  const profile = canonical(wanted.profile);
  const actual = current.profiles.map(canonical);
  if (actual.some((name) => name !== profile)) differences.push({ kind: 'profile', wanted: profile, actual: [...new Set(actual)] });
  if (current.profiles.length !== wanted.devices)
    differences.push({ kind: 'devices', wanted: wanted.devices, actual: current.profiles.length });
  if (wanted.fresh && current.callsSinceReset > 0) differences.push({ kind: 'used', calls: current.callsSinceReset });
  return differences;
}
