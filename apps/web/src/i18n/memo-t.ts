import type { i18n } from 'i18next';

/**
 * i18next resolves each text afresh: the key's path, plural and context rules, then interpolation,
 * 10–25 µs a call on this machine. A step of the time cursor re-renders a few hundred texts (pool
 * rows, legend, bars, status lines), which made translation the largest single cost of a step. The
 * catalogues never change while the page runs, so a text is a function of the language, the key and
 * the values filled in: this remembers it under exactly those.
 *
 * Only calls whose values are primitives (and arrays of strings, as `lngs` and `ns` are) are
 * remembered; anything else (an object value, a second positional argument) goes to i18next as before.
 */
export const MEMO_LIMIT = 20_000;

/** The cache key for one call, or undefined when the call is not one this can remember exactly. */
export function callKey(language: string, key: unknown, options: unknown, extra: number): string | undefined {
  if (extra > 0) return undefined;
  let id: string;
  if (typeof key === 'string') id = `${language}\u0000${key}`;
  else if (Array.isArray(key) && key.every((part) => typeof part === 'string')) id = `${language}\u0000${JSON.stringify(key)}`;
  else return undefined;
  if (options === undefined) return id;
  if (typeof options !== 'object' || options === null || Object.getPrototypeOf(options) !== Object.prototype) return undefined;
  for (const [name, value] of Object.entries(options)) {
    const part = valuePart(value);
    if (part === undefined) return undefined;
    id += `\u0000${name}\u0000${part}`;
  }
  return id;
}

/** A value written so that two values share a part only when i18next would treat them the same. */
function valuePart(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? 'n-0' : `n${value}`;
    case 'boolean':
      return value ? 'T' : 'F';
    case 'undefined':
      return 'u';
    case 'bigint':
      return `b${value}`;
    default:
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? `a${JSON.stringify(value)}` : undefined;
  }
}

/** Options that choose the language, namespace or prefix themselves: a fixed `t` must not key them by its own. */
function scoped(options: unknown): boolean {
  if (typeof options !== 'object' || options === null) return false;
  return 'lng' in options || 'lngs' in options || 'ns' in options || 'keyPrefix' in options;
}

/**
 * Puts the memo in front of `instance.t`, and of the fixed `t` react-i18next's useTranslation asks
 * for (i18next's own copies its whole options object on every call, which cost as much again as
 * the lookup). Cleared when a bundle changes.
 */
export function memoizeTranslations(instance: i18n): void {
  const translate = instance.t.bind(instance);
  const fixedOf = instance.getFixedT.bind(instance);
  const memo = new Map<string, unknown>();
  const forget = (): void => memo.clear();
  instance.store.on('added', forget);
  instance.store.on('removed', forget);
  const remember = (id: string, compute: () => unknown): unknown => {
    if (memo.has(id)) return memo.get(id);
    const text = compute();
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(id, text);
    return text;
  };
  const memoized = (key: unknown, options?: unknown, ...rest: unknown[]): unknown => {
    const id = callKey(instance.language, key, options, rest.length);
    const call = (): unknown => Reflect.apply(translate, instance, [key, options, ...rest]);
    return id === undefined ? call() : remember(id, call);
  };
  const fixed = (lng: unknown, ns?: unknown, keyPrefix?: unknown): unknown => {
    const plain = fixedOf(lng as string, ns as string, keyPrefix as string);
    // Only the case useTranslation asks for is remembered: one language, one namespace, no prefix.
    if (typeof lng !== 'string' || (ns !== undefined && typeof ns !== 'string') || keyPrefix !== undefined) return plain;
    const scope = `${lng}\u0001${ns ?? ''}`;
    const fast = (key: unknown, options?: unknown, ...rest: unknown[]): unknown => {
      const call = (): unknown => Reflect.apply(plain, undefined, [key, options, ...rest]);
      const id = scoped(options) ? undefined : callKey(scope, key, options, rest.length);
      return id === undefined ? call() : remember(id, call);
    };
    // i18next marks its fixed t with what it is fixed to; callers may read them.
    for (const field of ['lng', 'lngs', 'ns', 'keyPrefix']) Reflect.set(fast, field, Reflect.get(plain, field));
    return fast;
  };
  Reflect.set(instance, 't', memoized);
  Reflect.set(instance, 'getFixedT', fixed);
}
