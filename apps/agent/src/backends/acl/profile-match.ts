import {
  ASCEND_310P3,
  ASCEND_910_93,
  ASCEND_910B2,
  ASCEND_910B4,
  DEFAULT_PROFILE,
  type DeviceProfile,
  describeText,
  findProfile,
  type Text,
  text,
} from '@pagelens/core';

/*
 * aclrtGetSocName → the device profile whose page sizes, padding and features PageLens assumes
 * for the rules it explains (DM-3 padding, page sizes of DM-11). The runtime still decides every
 * call; the profile only shapes explanations and the frame table's size.
 */

export interface ProfileMatch {
  readonly profile: DeviceProfile;
  /** Set when the match is not exact: shown to the user in host.note (`noteCode` is the same as a code of core's table). */
  readonly note?: string;
  readonly noteCode?: Text;
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

function noted(why: Text): { readonly note: string; readonly noteCode: Text } {
  return { note: describeText(why), noteCode: why };
}

export function matchProfile(socName: string | null): ProfileMatch {
  const name = socName ?? '';
  const exact = name === '' ? undefined : findProfile(name);
  if (exact !== undefined) return { profile: exact };
  for (const [pattern, profile] of FAMILIES) {
    if (pattern.test(name)) {
      return { profile, ...noted(text('host-note-soc-family', { soc: name, profile: profile.name })) };
    }
  }
  return {
    profile: genericProfile(name === '' ? 'unknown' : name),
    ...noted(name === '' ? text('host-note-soc-null') : text('host-note-soc-unknown', { soc: name })),
  };
}
