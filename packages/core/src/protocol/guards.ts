/**
 * Small predicates with the acceptance rules of the zod constructs the wire schemas use, for the
 * hot paths (event batches and snapshots) where zod's general machinery costs several µs per event.
 * Each one says yes exactly when the zod construct named beside it would parse the value, for values
 * made by `JSON.parse` (plain objects whose keys are all own, enumerable strings; see
 * fast-agent-message.test.ts, which checks that against the schemas). They never build a value and
 * never explain a refusal: a refused message is parsed again by zod, which words the error.
 */

/** A predicate over a wire value. */
export type Guard = (value: unknown) => boolean;

/** An object that is not an array or null (zod's `isObject`, used by objects and discriminated unions). */
export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's `isPlainObject`, which records require: an object whose constructor, if any, looks like Object. */
function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (!isObject(value)) return false;
  const maker: unknown = value.constructor;
  if (maker === undefined || typeof maker !== 'function') return true;
  const prototype: unknown = maker.prototype;
  return isObject(prototype) && Object.hasOwn(prototype, 'isPrototypeOf');
}

/** `z.number().int().safe().nonnegative()`: sizes, addresses, ids and seqs. */
export const count: Guard = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** `z.number().int()` (zod's int is the safe-integer range). */
export const integer: Guard = (value) => typeof value === 'number' && Number.isSafeInteger(value);

/** `z.number()`: finite numbers only. */
export const finite: Guard = (value) => typeof value === 'number' && Number.isFinite(value);

/** `z.number().positive()`. */
export const positive: Guard = (value) => typeof value === 'number' && Number.isFinite(value) && value > 0;

export const boolean: Guard = (value) => typeof value === 'boolean';

/** `z.string()`, with `.max(maxLength)` in UTF-16 code units when given. */
export function text(maxLength = Number.POSITIVE_INFINITY): Guard {
  return (value) => typeof value === 'string' && value.length <= maxLength;
}

/** `z.enum([...])` or `z.literal(...)` of strings. */
export function oneOf(...allowed: readonly string[]): Guard {
  const set = new Set<unknown>(allowed);
  return (value) => set.has(value);
}

/** `z.array(item)` with `.min(minLength)` and `.max(maxLength)`. */
export function arrayOf(item: Guard, maxLength = Number.POSITIVE_INFINITY, minLength = 0): Guard {
  return (value) => {
    if (!Array.isArray(value) || value.length > maxLength || value.length < minLength) return false;
    for (let index = 0; index < value.length; index += 1) if (!item(value[index])) return false;
    return true;
  };
}

/** `z.tuple([...])` without a rest element: exactly these items. */
export function tuple(...items: readonly Guard[]): Guard {
  return (value) => Array.isArray(value) && value.length === items.length && items.every((item, index) => item(value[index]));
}

/**
 * `z.record(z.string(), item)`. zod accepts an own `__proto__` key without looking at it and leaves it
 * out of its result; such (hand-made, never agent-made) input is refused here so that whatever this
 * path accepts parses to the very value zod returns — zod then accepts it, stripped, on the slow path.
 */
export function recordOf(item: Guard | undefined): Guard {
  return (value) => {
    if (!isPlainObject(value)) return false;
    for (const key in value) {
      if (key === '__proto__' || (item !== undefined && !item(value[key]))) return false;
    }
    return true;
  };
}

/** Fields of a strict object: guards for required keys, and for keys that may be absent (`exactOptional`). */
export interface Fields {
  readonly [key: string]: Guard;
}

/**
 * `z.strictObject({...})`: every required key holds a valid value, an optional key is either absent or
 * valid (present but undefined is refused, as `exactOptional` does), and there is no other key. The
 * last is a count: each key checked is an own key of a parsed object, so any key beyond those is one
 * the schema does not know.
 */
export function strict(required: Fields, optional: Fields = {}): Guard {
  const requiredFields = Object.entries(required).map(([key, guard]) => ({ key, guard }));
  const optionalFields = Object.entries(optional).map(([key, guard]) => ({ key, guard }));
  return (value) => {
    if (!isObject(value)) return false;
    for (const field of requiredFields) if (!field.guard(value[field.key])) return false;
    let expected = requiredFields.length;
    for (const field of optionalFields) {
      if (!(field.key in value)) continue;
      if (!field.guard(value[field.key])) return false;
      expected += 1;
    }
    let keys = 0;
    for (const _key in value) keys += 1;
    return keys === expected;
  };
}

/**
 * `z.discriminatedUnion(discriminator, [...])`: an object whose discriminator value picks one of
 * `options`, which must then accept it.
 */
export function union(discriminator: string, options: ReadonlyMap<unknown, Guard>): Guard {
  return (value) => {
    if (!isObject(value)) return false;
    const option = options.get(value[discriminator]);
    return option?.(value) === true;
  };
}
