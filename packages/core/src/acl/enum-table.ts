/**
 * A C enum (or a family of `#define` flag macros) as a lookup table that works both ways.
 * Values are what the C compiler sees: every ACL enum is 4 bytes, so values must fit in uint32.
 */
export interface AclEnum<N extends string> {
  /** C type name such as 'aclrtMemMallocPolicy', or a macro family name such as 'ACL_HOST_REG'. */
  readonly cName: string;
  /** 'flags': the members are bits that a caller may OR together. */
  readonly kind: 'enum' | 'flags';
  readonly byName: Readonly<Record<N, number>>;
  /** In declaration order. */
  readonly names: readonly N[];
  /** What the members' names start with, up to an underscore ("ACL_MEMCPY_"); `shortName` drops it. */
  readonly prefix: string;
  /** The first declared name with this value, so an alias never hides the canonical name. */
  nameOf(value: number): N | undefined;
  valueOf(name: string): number | undefined;
  has(name: string): name is N;
}

const UINT32_MAX = 0xffff_ffff;

/** The longest start that every name shares, cut back to its last underscore: ["ACL_A_X", "ACL_A_Y"] → "ACL_A_". */
function sharedPrefix(names: readonly string[]): string {
  const [first = '', ...rest] = names;
  let length = first.length;
  for (const name of rest) {
    let same = 0;
    while (same < length && same < name.length && name[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, first.lastIndexOf('_', length - 1) + 1);
}

/**
 * `prefix` names what `shortName` drops when the members do not all share it: the base policies of
 * aclrtMemMallocPolicy are ACL_MEM_MALLOC_*, its bandwidth bits ACL_MEM_TYPE_*.
 */
export function defineEnum<const N extends string>(
  cName: string,
  byName: Record<N, number>,
  kind: 'enum' | 'flags' = 'enum',
  prefix?: string,
): AclEnum<N> {
  const names = Object.keys(byName).filter((key): key is N => Object.hasOwn(byName, key));
  const valueByName = new Map<string, number>();
  const nameByValue = new Map<number, N>();
  for (const name of names) {
    const value = byName[name];
    if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
      throw new Error(`${cName}.${name} = ${value}: an ACL enum value must be an integer in 0..0xFFFFFFFF`);
    }
    valueByName.set(name, value);
    if (!nameByValue.has(value)) nameByValue.set(value, name);
  }
  return Object.freeze({
    cName,
    kind,
    byName: Object.freeze({ ...byName }),
    names: Object.freeze(names),
    prefix: prefix ?? sharedPrefix(names),
    nameOf: (value: number) => nameByValue.get(value),
    valueOf: (name: string) => valueByName.get(name),
    has: (name: string): name is N => valueByName.has(name),
  });
}

/**
 * A member without its table's prefix, for labels where the table is plain from context:
 * (aclrtMemcpyKind, "ACL_MEMCPY_HOST_TO_DEVICE" or 1) → "HOST_TO_DEVICE". A name without the prefix
 * comes back whole, and a value with no name as its decimal number.
 */
export function shortName(table: AclEnum<string>, member: string | number): string {
  const name = typeof member === 'number' ? table.nameOf(member) : member;
  if (name === undefined) return String(member);
  return name.startsWith(table.prefix) && name.length > table.prefix.length ? name.slice(table.prefix.length) : name;
}

/**
 * For flag sets: the names whose bits are all set in `value`, plus any leftover bits as a hex
 * number string; e.g. 0x10000002 → ['ACL_HOST_REG_MAPPED', 'ACL_HOST_REG_PINNED'].
 *
 * Names come in declaration order. A name whose bits are a strict subset of another matched
 * name is dropped (READWRITE=0x3 absorbs READ=0x1), and of two names with the same value only
 * the first is kept. A zero-valued name (such as *_DEFAULT) is returned only for value 0.
 */
export function flagNames(e: AclEnum<string>, value: number): string[] {
  // C reads the flag word as uint32; `>>> 0` keeps bit 31 positive in JS.
  const bits = value >>> 0;
  if (bits === 0) {
    const zeroName = e.nameOf(0);
    return zeroName === undefined ? [] : [zeroName];
  }
  const matched: { name: string; bits: number }[] = [];
  for (const name of e.names) {
    const nameBits = (e.valueOf(name) ?? 0) >>> 0;
    if (nameBits === 0 || (bits & nameBits) >>> 0 !== nameBits) continue;
    if (matched.some((m) => m.bits === nameBits)) continue;
    matched.push({ name, bits: nameBits });
  }
  const isAbsorbed = (m: { bits: number }) => matched.some((other) => other.bits !== m.bits && (other.bits & m.bits) >>> 0 === m.bits);
  const kept = matched.filter((m) => !isAbsorbed(m));
  const covered = kept.reduce((acc, m) => (acc | m.bits) >>> 0, 0);
  const leftover = (bits & ~covered) >>> 0;
  const result = kept.map((m) => m.name);
  if (leftover !== 0) result.push(`0x${leftover.toString(16)}`);
  return result;
}
