import { ASCEND_310P3, ASCEND_910_93, ASCEND_910B2, ASCEND_910B4, DEFAULT_PROFILE, type DeviceProfile, findProfile } from '@pagelens/core';

/*
 * aclrtGetSocName → the device profile whose page sizes, padding and features PageLens assumes
 * for the rules it explains (DM-3 padding, page sizes of DM-11). The runtime still decides every
 * call; the profile only shapes explanations and the frame table's size.
 */

export interface ProfileMatch {
  readonly profile: DeviceProfile;
  /** Set when the match is not exact: shown to the user in host.note. */
  readonly note?: string;
}

/** SoC names of one family share page sizes, padding and features (platform ini files, acl-api.md §7). */
const FAMILIES: readonly (readonly [RegExp, DeviceProfile])[] = [
  [/^Ascend910B[1-3]$/i, ASCEND_910B2],
  [/^Ascend910B4(-1)?$/i, ASCEND_910B4],
  [/^Ascend910_93\d\d$/i, ASCEND_910_93],
  [/^Ascend310P\d$/i, ASCEND_310P3],
];

export const GENERIC_PROFILE_NAME = 'generic';

function genericProfile(socName: string): DeviceProfile {
  return {
    ...DEFAULT_PROFILE,
    name: GENERIC_PROFILE_NAME,
    label: `unknown SoC ${socName.slice(0, 60)} (generic profile)`.slice(0, 120),
    assumed: Object.keys(DEFAULT_PROFILE),
  };
}

export function matchProfile(socName: string | null): ProfileMatch {
  const name = socName ?? '';
  const exact = name === '' ? undefined : findProfile(name);
  if (exact !== undefined) return { profile: exact };
  for (const [pattern, profile] of FAMILIES) {
    if (pattern.test(name)) {
      return { profile, note: `SoC ${name} uses the ${profile.name} profile (same family: page sizes, padding and features)` };
    }
  }
  const shown = name === '' ? 'unknown (aclrtGetSocName returned NULL)' : `"${name}"`;
  return {
    profile: genericProfile(name === '' ? 'unknown' : name),
    note: `SoC ${shown} is not one PageLens knows: it uses a generic profile (4 KiB / 2 MiB / 1 GiB pages and 32-byte padding assumed); pools, addresses and return codes still come from the runtime`,
  };
}
