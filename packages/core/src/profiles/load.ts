import { describeIssue } from '../protocol/parse.ts';
import { quote } from '../protocol/quote.ts';
import { BUILTIN_PROFILES } from './builtin.ts';
import { DeviceProfile } from './profile.ts';

export type ProfileLoad = { ok: true; profile: DeviceProfile } | { ok: false; message: string };

/**
 * Loads a custom profile from JSON text. A partial profile may name a built-in one to start from
 * with `"extends": "Ascend910B2"`; the rest of its fields replace the built-in's (nested objects
 * merge one level deep).
 */
export function loadProfileJson(text: string, source = 'profile'): ProfileLoad {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `${source}: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return { ok: false, message: `${source}: a profile is a JSON object` };
  }
  let candidate: Record<string, unknown> = { ...json };
  const base = candidate.extends;
  if (base !== undefined) {
    const parent = BUILTIN_PROFILES.find((profile) => profile.name === base);
    if (parent === undefined) {
      return {
        ok: false,
        message: `${source}: "extends": ${quote(base)} is not a built-in profile; use one of ${BUILTIN_PROFILES.map((p) => p.name).join(', ')}`,
      };
    }
    const { extends: _ignored, ...own } = candidate;
    const merged: Record<string, unknown> = { ...parent };
    for (const [key, value] of Object.entries(own)) {
      const inherited = merged[key];
      merged[key] =
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        inherited !== null &&
        typeof inherited === 'object' &&
        !Array.isArray(inherited)
          ? { ...inherited, ...value }
          : value;
    }
    candidate = merged;
  }
  const result = DeviceProfile.safeParse(candidate);
  if (!result.success) {
    const { message } = describeIssue(candidate, result.error);
    return { ok: false, message: `${source}: ${message}` };
  }
  return { ok: true, profile: result.data };
}
