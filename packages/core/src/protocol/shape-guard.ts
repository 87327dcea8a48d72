import type { Fields, Shape } from '../model/shape.ts';
import { DeviceProfile } from '../profiles/profile.ts';
import {
  arrayOf,
  boolean,
  count,
  finite,
  type Guard,
  integer,
  isObject,
  oneOf,
  positive,
  recordOf,
  strict,
  text,
  tuple,
  union,
} from './guards.ts';

/**
 * The fast guard of a shape (model/shape.ts): yes exactly when its zod schema (shape-schema.ts)
 * would accept a value `JSON.parse` made and return it unchanged. A shape is compiled once, when a
 * module asks for it, into the closures of guards.ts, so that checking a value walks no table: each
 * object's fields are already split into required and optional lists of (key, guard).
 */

/**
 * zod checks a profile (its refinements are not worth repeating, and there are at most 16); an own
 * `__proto__` key in its `sources`, which zod would strip, is left to zod (see recordOf).
 */
const sources = recordOf(text());
const profile: Guard = (value) => isObject(value) && sources(value.sources) && DeviceProfile.safeParse(value).success;

const anything: Guard = () => true;

function either(options: readonly Guard[]): Guard {
  const [a, b] = options;
  // The one union of the tables (a reason's values) has two options: no loop for it.
  if (options.length === 2 && a !== undefined && b !== undefined) return (value) => a(value) || b(value);
  return (value) => options.some((option) => option(value));
}

function objectGuard(fields: Fields): Guard {
  const required: Record<string, Guard> = {};
  const optional: Record<string, Guard> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (field.t === 'optional') optional[name] = guardOf(field.shape);
    else required[name] = guardOf(field);
  }
  return strict(required, optional);
}

function compile(shape: Shape): Guard {
  switch (shape.t) {
    case 'count':
      return count;
    case 'int':
      return integer;
    case 'number':
      return finite;
    case 'positive':
      return positive;
    case 'boolean':
      return boolean;
    case 'unknown':
      return anything;
    case 'profile':
      return profile;
    case 'text':
      return text(shape.max);
    case 'oneOf':
      return oneOf(...shape.values);
    case 'array':
      return arrayOf(guardOf(shape.item), shape.max, shape.min);
    case 'tuple':
      return tuple(...shape.items.map(guardOf));
    case 'record':
      // A record of anything checks only that it is a plain record.
      return recordOf(shape.value.t === 'unknown' ? undefined : guardOf(shape.value));
    case 'either':
      return either(shape.options.map(guardOf));
    case 'object':
      return objectGuard(shape.fields);
  }
}

/** Shapes shared between rows get one guard. */
const compiled = new WeakMap<Shape, Guard>();

export function guardOf(shape: Shape): Guard {
  let guard = compiled.get(shape);
  if (guard === undefined) {
    guard = compile(shape);
    compiled.set(shape, guard);
  }
  return guard;
}

/** `z.discriminatedUnion(discriminator, …)` of the object shapes `options`: the option the discriminator's value names must accept. */
export function unionGuard(discriminator: string, options: readonly Shape[]): Guard {
  const byValue = new Map<unknown, Guard>();
  for (const option of options) {
    if (option.t !== 'object') throw new Error('a discriminated union is made of objects');
    const tag = option.fields[discriminator];
    if (tag?.t !== 'oneOf') throw new Error(`every option of the union names its ${discriminator}`);
    const guard = guardOf(option);
    for (const value of tag.values) byValue.set(value, guard);
  }
  return union(discriminator, byValue);
}
