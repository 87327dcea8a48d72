import { BUILTIN_PROFILE_NAMES, findProfile, type Reset, type Text, text } from '@pagelens/core';
import type { Backend } from '../backends/backend.ts';

/** Why the agent refuses a reset, as a coded text for the client; it is checked before anything is torn down. */
export interface ResetRefusal {
  readonly code: 'not-driver' | 'invalid-argument';
  readonly why: Text;
  readonly field?: 'profile' | 'devices' | 'seed';
}

/**
 * Whether `reset`, sent by a connection that does (`driver`) or does not hold the driver session,
 * can be done on `backend`. The device range is the Reset schema's (SIMULATED_DEVICES), so it
 * never reaches here out of range. Only built-in profiles: a reset may not read files on the agent.
 */
export function resetRefusal(reset: Reset, driver: boolean, backend: Pick<Backend, 'name' | 'host'>): ResetRefusal | undefined {
  if (!driver) return { code: 'not-driver', why: text('viewer-cannot-reset') };
  if (backend.host.provenance !== 'simulated') {
    const chosen = (['profile', 'devices', 'seed'] as const).find((field) => reset[field] !== undefined);
    if (chosen !== undefined)
      return { code: 'invalid-argument', field: chosen, why: text('reset-real-devices', { backend: backend.name }) };
  }
  if (reset.profile !== undefined && findProfile(reset.profile) === undefined) {
    return {
      code: 'invalid-argument',
      field: 'profile',
      why: text('unknown-profile', { profile: reset.profile, profiles: BUILTIN_PROFILE_NAMES.join(', ') }),
    };
  }
  return undefined;
}
