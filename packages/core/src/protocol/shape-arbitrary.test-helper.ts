/**
 * Test helper: fast-check arbitraries, full samples and one-change variants read off a shape
 * (model/shape.ts), the same tables the schemas and the guards are made from. The guard tests throw
 * these values at both and compare the answers, so what they catch is a difference between the two
 * compilers (shape-schema.ts, shape-guard.ts); the values follow the table (every kind, every optional
 * field, every bound) rather than a second hand-written description.
 */
import fc from 'fast-check';
import type { Field, Shape } from '../model/shape.ts';
import { BUILTIN_PROFILES } from '../profiles/builtin.ts';

/** Shapes to generate another way (device profiles: built-in ones unless given). */
export type Overrides = ReadonlyMap<Shape, fc.Arbitrary<unknown>>;

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly minExcluded: boolean;
  readonly maxExcluded: boolean;
  readonly integer: boolean;
}

const SAFE: Bounds = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER, minExcluded: false, maxExcluded: false, integer: true };
const FINITE: Bounds = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, minExcluded: false, maxExcluded: false, integer: false };

/** The range of a number shape; undefined for other shapes. */
function numberBounds(shape: Shape): Bounds | undefined {
  switch (shape.t) {
    case 'count':
      return { ...SAFE, min: 0 };
    case 'int':
      return SAFE;
    case 'number':
      return FINITE;
    case 'positive':
      return { ...FINITE, min: 0, minExcluded: true };
    default:
      return undefined;
  }
}

function numberArbitrary(b: Bounds): fc.Arbitrary<number> {
  if (b.integer) {
    const min = b.minExcluded ? b.min + 1 : b.min;
    const max = b.maxExcluded ? b.max - 1 : b.max;
    // Mostly small values (ids, counts), sometimes the edges of the range.
    const low = Math.max(min, -1000);
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: low, max: Math.min(max, low + 100_000) }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: fc.integer({ min, max }) },
    );
  }
  return fc.double({
    min: b.min,
    max: b.max,
    minExcluded: b.minExcluded,
    maxExcluded: b.maxExcluded,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

/** Length limits of a text or an array. */
function lengthBounds(shape: Shape): { minLength: number; maxLength: number } {
  if (shape.t === 'text') return { minLength: 0, maxLength: shape.max ?? Number.POSITIVE_INFINITY };
  if (shape.t === 'array') return { minLength: shape.min ?? 0, maxLength: shape.max ?? Number.POSITIVE_INFINITY };
  return { minLength: 0, maxLength: Number.POSITIVE_INFINITY };
}

function stringArbitrary(shape: Shape): fc.Arbitrary<string> {
  const { minLength, maxLength } = lengthBounds(shape);
  const arbitraries = [fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 12)) })];
  // A string of exactly the longest allowed length.
  if (Number.isFinite(maxLength)) arbitraries.push(fc.constant('x'.repeat(maxLength)));
  return fc.oneof(...arbitraries);
}

/** The shape of a field's value (an optional field's inner shape). */
const valueShape = (field: Field): Shape => (field.t === 'optional' ? field.shape : field);

/** An arbitrary for the values `shape` describes (and, through a device profile's refinements, sometimes values it refuses). */
export function arbitraryFor(shape: Shape, overrides: Overrides = new Map()): fc.Arbitrary<unknown> {
  const override = overrides.get(shape);
  if (override !== undefined) return override;
  const of = (inner: Shape): fc.Arbitrary<unknown> => arbitraryFor(inner, overrides);
  switch (shape.t) {
    case 'count':
    case 'int':
    case 'number':
    case 'positive':
      return numberArbitrary(numberBounds(shape) ?? FINITE);
    case 'text':
      return stringArbitrary(shape);
    case 'boolean':
      return fc.boolean();
    case 'unknown':
      return fc.jsonValue({ maxDepth: 2 });
    case 'profile':
      return fc.constantFrom(...BUILTIN_PROFILES);
    case 'oneOf':
      return fc.constantFrom(...shape.values);
    case 'array': {
      const { minLength, maxLength } = lengthBounds(shape);
      return fc.array(of(shape.item), { minLength, maxLength: Math.min(maxLength, Math.max(minLength, 3)) });
    }
    case 'tuple':
      return fc.tuple(...shape.items.map(of));
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 6 }), of(shape.value), { maxKeys: 3 });
    case 'either':
      return fc.oneof(...shape.options.map(of));
    case 'object': {
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const [key, field] of Object.entries(shape.fields)) {
        fields[key] = of(valueShape(field));
        if (field.t !== 'optional') required.push(key);
      }
      return fc.record(fields, { requiredKeys: required });
    }
  }
}

/** Shapes to sample another way in `fullSample` (device profiles: the first built-in one unless given). */
export type Samples = ReadonlyMap<Shape, unknown>;

/**
 * One valid value of `shape` with every optional field present and every array holding one item,
 * so that `oneChangeVariants` can reach every field.
 */
export function fullSample(shape: Shape, samples: Samples = new Map()): unknown {
  if (samples.has(shape)) return samples.get(shape);
  const of = (inner: Shape): unknown => fullSample(inner, samples);
  switch (shape.t) {
    case 'count':
    case 'int':
    case 'number':
    case 'positive':
      return 1;
    case 'text':
      return 'a';
    case 'boolean':
      return true;
    case 'unknown':
      return 1;
    case 'profile':
      return BUILTIN_PROFILES[0];
    case 'oneOf':
      return shape.values[0];
    case 'array':
      return Array.from({ length: Math.max(1, lengthBounds(shape).minLength) }, () => of(shape.item));
    case 'tuple':
      return shape.items.map(of);
    case 'record':
      return { key: of(shape.value) };
    case 'either':
      return shape.options[0] === undefined ? undefined : of(shape.options[0]);
    case 'object':
      return Object.fromEntries(Object.entries(shape.fields).map(([key, field]) => [key, of(valueShape(field))]));
  }
}

const WRONG_TYPES: readonly unknown[] = [null, true, '1', 1, [], {}];

/** Values just outside what a leaf shape allows: one past each bound, non-integers, over-long text, near-miss words. */
function leafNearMisses(shape: Shape): readonly unknown[] {
  const b = numberBounds(shape);
  if (b !== undefined) return [b.min - 1, b.max + 1, b.min, b.max, 0, 0.5, -0.5, 2 ** 53, -(2 ** 53), 1e308].filter(Number.isFinite);
  if (shape.t === 'text') {
    const { minLength, maxLength } = lengthBounds(shape);
    return [maxLength, maxLength + 1, minLength - 1].filter((length) => length >= 0 && length <= 5000).map((length) => 'x'.repeat(length));
  }
  if (shape.t === 'oneOf') {
    const words = shape.values;
    return [...words.map((word) => `${word}x`), ...words.map((word) => word.toUpperCase()), ...words];
  }
  if (shape.t === 'boolean') return ['true', 0, 1, false];
  return [];
}

/**
 * A value the table does not describe (a device profile, checked by its own schema) changed in one
 * place: each number moved, each text and word changed, each key removed, an unknown key added.
 */
function jsonVariants(base: unknown): unknown[] {
  if (typeof base === 'number') return [base - 1, base + 1, -base, base + 0.5, 0];
  if (typeof base === 'string') return ['', `${base}x`, base.toUpperCase()];
  if (typeof base === 'boolean') return [!base];
  const variants: unknown[] = [...WRONG_TYPES];
  if (Array.isArray(base)) {
    variants.push([], [...base, base[0]]);
    base.forEach((item, index) => {
      for (const value of jsonVariants(item)) variants.push(base.map((old, at) => (at === index ? value : old)));
    });
  } else if (base !== null && typeof base === 'object') {
    variants.push({ ...base, extra: 1 });
    for (const [key, value] of Object.entries(base)) {
      variants.push(Object.fromEntries(Object.entries(base).filter(([name]) => name !== key)));
      for (const changed of jsonVariants(value)) variants.push({ ...base, [key]: changed });
    }
  }
  return variants;
}

/**
 * Every value that differs from `base` (a value of `shape`) in one place: each leaf replaced by
 * its near misses and by values of the wrong type, each key removed, an unknown key added, each
 * array one past its length limits, each tuple one short or long. Most are refused by the schema;
 * all are compared between a guard and zod.
 */
export function oneChangeVariants(shape: Shape, base: unknown): unknown[] {
  if (shape.t === 'profile') return jsonVariants(base);
  const variants: unknown[] = [...leafNearMisses(shape), ...WRONG_TYPES];
  if (shape.t === 'array' && Array.isArray(base) && base.length > 0) {
    const { minLength, maxLength } = lengthBounds(shape);
    for (const length of [0, minLength - 1, maxLength, maxLength + 1]) {
      if (length >= 0 && length <= 5000) variants.push(Array.from({ length }, () => base[0]));
    }
    for (const item of oneChangeVariants(shape.item, base[0])) variants.push([item, ...base.slice(1)]);
  } else if (shape.t === 'tuple' && Array.isArray(base)) {
    variants.push(base.slice(1), [...base, 0]);
    shape.items.forEach((item, index) => {
      for (const value of oneChangeVariants(item, base[index])) variants.push(base.map((old, at) => (at === index ? value : old)));
    });
  } else if (shape.t === 'record' && base !== null && typeof base === 'object') {
    for (const [key, value] of Object.entries(base)) {
      for (const changed of oneChangeVariants(shape.value, value)) variants.push({ ...base, [key]: changed });
    }
  } else if (shape.t === 'either') {
    for (const option of shape.options) variants.push(...oneChangeVariants(option, fullSample(option)));
  } else if (shape.t === 'object' && base !== null && typeof base === 'object') {
    variants.push({ ...base, extra: 1 });
    for (const [key, field] of Object.entries(shape.fields)) {
      variants.push(Object.fromEntries(Object.entries(base).filter(([name]) => name !== key)));
      for (const changed of oneChangeVariants(valueShape(field), Reflect.get(base, key))) variants.push({ ...base, [key]: changed });
    }
  }
  return variants;
}

/** A value that went through JSON, as a received message does (-0 becomes 0, and so on). */
export function viaJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/** Every place inside a JSON value: the path to each object and array, with the value there. */
export function containers(value: unknown, path: readonly (string | number)[] = []): { path: (string | number)[]; node: object }[] {
  if (value === null || typeof value !== 'object') return [];
  const found = [{ path: [...path], node: value }];
  for (const [key, item] of Object.entries(value)) found.push(...containers(item, [...path, Array.isArray(value) ? Number(key) : key]));
  return found;
}

/** Values that break some rule somewhere: wrong types, out-of-range numbers, over-long strings, near-miss words. */
export const TRICKY_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 53),
  1e300,
  '',
  '0x10',
  'x'.repeat(17),
  'x'.repeat(65),
  'x'.repeat(201),
  'x'.repeat(2001),
  [],
  [1, 2],
  [-1],
  {},
  { a: 1 },
  'normal',
  'huge',
  'Huge',
  'simulated',
  'alloc',
  4096,
];

/** Deep equality of JSON values that also sees own `__proto__` keys and ignores key order. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && sameJson(Reflect.get(a, key), Reflect.get(b, key)));
}
