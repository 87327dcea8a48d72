/**
 * Received values quoted back in error messages: short, and safe for any value. JSON.stringify
 * would write all of a 1 MiB string or a 100,000-key object before being cut, and throws (as
 * String() does) on a few thousand nested arrays; this writes only the first characters.
 */

/** Longest text of a received value quoted back in an error message (UTF-16 code units). */
export const QUOTE_LIMIT = 60;

/** Collects text until it holds more than `limit` code units, then ignores the rest. */
class BoundedText {
  readonly #parts: string[] = [];
  #length = 0;
  constructor(readonly limit: number) {}

  get full(): boolean {
    return this.#length > this.limit;
  }

  add(text: string): void {
    if (this.full) return;
    this.#parts.push(text);
    this.#length += text.length;
  }

  toString(): string {
    const text = this.#parts.join('');
    return text.length > this.limit ? `${text.slice(0, this.limit)}…` : text;
  }
}

/** A scalar as JSON writes it, except what JSON cannot hold (NaN, 12n, undefined), named as JavaScript does. */
function scalarText(value: unknown, limit: number): string {
  switch (typeof value) {
    case 'string':
      // Cut before escaping: JSON.stringify of the whole string would copy all of it.
      return JSON.stringify(value.length > limit ? value.slice(0, limit + 1) : value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return '[function]';
    default:
      return String(value);
  }
}

/** Whether JSON.stringify leaves out an object member holding this value. */
function skippedInObject(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/**
 * Writes `value` as JSON until `out` is full. It recurses, but only as deep as it writes: every
 * level opened writes at least one character first, so the depth stays within `out.limit` + 1,
 * whatever the value's own depth, cycles included.
 */
function write(value: unknown, out: BoundedText): void {
  if (out.full) return;
  if (value === null || typeof value !== 'object') {
    out.add(scalarText(value, out.limit));
    return;
  }
  if (Array.isArray(value)) {
    out.add('[');
    for (let index = 0; index < value.length && !out.full; index += 1) {
      if (index > 0) out.add(',');
      const item: unknown = value[index];
      write(skippedInObject(item) ? null : item, out);
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const key in value) {
    if (out.full) break;
    if (!Object.hasOwn(value, key)) continue;
    const item: unknown = Reflect.get(value, key);
    if (skippedInObject(item)) continue;
    if (!first) out.add(',');
    first = false;
    out.add(`${scalarText(key, out.limit)}:`);
    write(item, out);
  }
  out.add('}');
}

/**
 * `value` as JSON text, cut to `limit` code units with "…" when longer. Never throws and never
 * recurses deeper than `limit`: a getter or proxy that throws ends the text where it is. Unlike
 * JSON.stringify it calls no `toJSON` and writes NaN, Infinity and 12n as such.
 */
export function quote(value: unknown, limit = QUOTE_LIMIT): string {
  const out = new BoundedText(limit);
  try {
    write(value, out);
  } catch {
    out.add('…');
  }
  return out.toString();
}

/** A name or text from a received message, cut to `limit` code units with "…" (for field paths and messages). */
export function clip(text: string, limit = QUOTE_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
