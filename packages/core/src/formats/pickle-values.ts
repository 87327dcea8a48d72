/**
 * The values the restricted reader builds (pickle-reader.ts) and the byte-level helpers it decodes
 * them with: integers, lengths, Latin-1 text, dict keys, and the names a refused GLOBAL asks for.
 */
export type PickleValue = null | boolean | number | bigint | string | Uint8Array | PickleValue[] | PickleDict;
export interface PickleDict {
  [key: string]: PickleValue;
}

const TWO_32 = 4294967296;

/** Little-endian two's complement integer of `n` bytes: a number when safe, a bigint otherwise. */
export function decodeLong(buf: Uint8Array, start: number, n: number): number | bigint {
  if (n === 0) return 0;
  const negative = ((buf[start + n - 1] ?? 0) & 0x80) !== 0;
  if (n <= 6) {
    let value = 0;
    for (let i = n - 1; i >= 0; i -= 1) value = value * 256 + (buf[start + i] ?? 0);
    return negative ? value - 2 ** (8 * n) : value;
  }
  let big = 0n;
  for (let i = n - 1; i >= 0; i -= 1) big = (big << 8n) | BigInt(buf[start + i] ?? 0);
  if (negative) big -= 1n << BigInt(8 * n);
  return big >= -9007199254740991n && big <= 9007199254740991n ? Number(big) : big;
}

/** An 8-byte little-endian length; one past 2^53 cannot be the size of any real input. */
export function length8(view: DataView, pos: number): number {
  const low = view.getUint32(pos, true);
  const high = view.getUint32(pos + 4, true);
  return high >= 0x200000 ? Number.MAX_SAFE_INTEGER : high * TWO_32 + low;
}

export function latin1(buf: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; i += 4096) out += Reflect.apply(String.fromCharCode, null, buf.subarray(i, Math.min(end, i + 4096)));
  return out;
}

export function isDict(value: PickleValue): value is PickleDict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

export function kindOf(value: PickleValue | undefined): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'None';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'bytes';
  switch (typeof value) {
    case 'boolean':
      return 'a bool';
    case 'number':
      return Number.isInteger(value) ? 'an int' : 'a float';
    case 'bigint':
      return 'an int';
    case 'string':
      return 'a str';
    default:
      return 'a dict';
  }
}

export function dictKey(key: PickleValue): string | undefined {
  switch (typeof key) {
    case 'string':
      return key;
    case 'number':
    case 'bigint':
      return String(key);
    case 'boolean':
      return key ? 'True' : 'False';
    default:
      return key === null ? 'None' : undefined;
  }
}

/** `__proto__` as a key is data, not the prototype. */
export function setKey(dict: PickleDict, key: string, value: PickleValue): void {
  if (key === '__proto__') Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
  else dict[key] = value;
}

const NAME_LIMIT = 120;

export function globalName(buf: Uint8Array, pos: number, end: number): string {
  let text = '';
  let lines = 0;
  for (let i = pos; i < end && text.length < NAME_LIMIT && lines < 2; i += 1) {
    const b = buf[i] ?? 0;
    if (b === 0x0a) {
      lines += 1;
      if (lines < 2) text += '.';
    } else {
      text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '?';
    }
  }
  return `"${text}"`;
}

export function stackGlobalName(stack: readonly PickleValue[]): string {
  const module = stack[stack.length - 2];
  const name = stack[stack.length - 1];
  if (typeof module === 'string' && typeof name === 'string') return `"${`${module}.${name}`.slice(0, NAME_LIMIT)}"`;
  return 'a name from the stack';
}
