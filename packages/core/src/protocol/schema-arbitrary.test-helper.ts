/**
 * Test helper: fast-check arbitraries read off a zod schema's own definition, so the values the
 * guard tests throw at both validators follow the schema (every kind, every optional field) rather
 * than a second hand-written description that could share the guards' mistakes. Covers the zod
 * constructs the wire schemas use; anything else throws, so a new construct is noticed.
 */
import fc from 'fast-check';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';

/** Schemas to generate another way (for example device profiles, whose refinements random values rarely meet). */
export type Overrides = ReadonlyMap<$ZodType, fc.Arbitrary<unknown>>;

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly minExcluded: boolean;
  readonly maxExcluded: boolean;
  readonly integer: boolean;
}

/** A check's definition field, read without trusting zod's internal types. */
function checkField(check: unknown, field: string): unknown {
  const def: unknown = Reflect.get(Reflect.get(Object(check), '_zod') ?? {}, 'def');
  return def === undefined ? undefined : Reflect.get(Object(def), field);
}

function checksOf(schema: $ZodType): readonly unknown[] {
  return schema._zod.def.checks ?? [];
}

function numberBounds(schema: $ZodType): Bounds {
  let bounds: Bounds = { min: -Number.MAX_VALUE, max: Number.MAX_VALUE, minExcluded: false, maxExcluded: false, integer: false };
  for (const check of checksOf(schema)) {
    const kind = checkField(check, 'check');
    const value = Number(checkField(check, 'value'));
    const inclusive = checkField(check, 'inclusive') === true;
    if (kind === 'number_format') {
      bounds = {
        ...bounds,
        integer: true,
        min: Math.max(bounds.min, Number.MIN_SAFE_INTEGER),
        max: Math.min(bounds.max, Number.MAX_SAFE_INTEGER),
      };
    } else if (kind === 'greater_than' && value >= bounds.min) {
      bounds = { ...bounds, min: value, minExcluded: !inclusive };
    } else if (kind === 'less_than' && value <= bounds.max) {
      bounds = { ...bounds, max: value, maxExcluded: !inclusive };
    } else {
      throw new Error(`no arbitrary for number check ${String(kind)}`);
    }
  }
  return bounds;
}

function numberArbitrary(schema: $ZodType): fc.Arbitrary<number> {
  const b = numberBounds(schema);
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

function lengthBounds(schema: $ZodType): { minLength: number; maxLength: number } {
  let minLength = 0;
  let maxLength = Number.POSITIVE_INFINITY;
  for (const check of checksOf(schema)) {
    const kind = checkField(check, 'check');
    if (kind === 'max_length') maxLength = Number(checkField(check, 'maximum'));
    else if (kind === 'min_length') minLength = Number(checkField(check, 'minimum'));
    else if (kind !== 'string_format') throw new Error(`no arbitrary for length check ${String(kind)}`);
  }
  return { minLength, maxLength };
}

function stringArbitrary(schema: $ZodType): fc.Arbitrary<string> {
  const { minLength, maxLength } = lengthBounds(schema);
  const arbitraries = [fc.string({ minLength, maxLength: Math.min(maxLength, Math.max(minLength, 12)) })];
  // A string of exactly the longest allowed length.
  if (Number.isFinite(maxLength)) arbitraries.push(fc.constant('x'.repeat(maxLength)));
  return fc.oneof(...arbitraries);
}

/** An arbitrary for the values `schema` describes (and, through refinements, sometimes values it refuses). */
export function arbitraryFor(schema: $ZodType, overrides: Overrides = new Map()): fc.Arbitrary<unknown> {
  const override = overrides.get(schema);
  if (override !== undefined) return override;
  const of = (inner: $ZodType): fc.Arbitrary<unknown> => arbitraryFor(inner, overrides);
  if (schema instanceof z.ZodNumber) return numberArbitrary(schema);
  if (schema instanceof z.ZodString) return stringArbitrary(schema);
  if (schema instanceof z.ZodBoolean) return fc.boolean();
  if (schema instanceof z.ZodUnknown) return fc.jsonValue({ maxDepth: 2 });
  if (schema instanceof z.ZodEnum) return fc.constantFrom(...schema.options);
  if (schema instanceof z.ZodLiteral) return fc.constantFrom(...schema.values);
  if (schema instanceof z.ZodExactOptional) return of(schema.unwrap());
  if (schema instanceof z.ZodArray) {
    const { minLength, maxLength } = lengthBounds(schema);
    return fc.array(of(schema.element), { minLength, maxLength: Math.min(maxLength, Math.max(minLength, 3)) });
  }
  if (schema instanceof z.ZodTuple) return fc.tuple(...schema._zod.def.items.map((item) => of(item)));
  if (schema instanceof z.ZodRecord) return fc.dictionary(fc.string({ maxLength: 6 }), of(schema.valueType), { maxKeys: 3 });
  if (schema instanceof z.ZodUnion) return fc.oneof(...schema.options.map((option) => of(option)));
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, $ZodType> = schema.shape;
    const fields: Record<string, fc.Arbitrary<unknown>> = {};
    const required: string[] = [];
    for (const [key, field] of Object.entries(shape)) {
      fields[key] = of(field);
      if (!(field instanceof z.ZodExactOptional)) required.push(key);
    }
    return fc.record(fields, { requiredKeys: required });
  }
  throw new Error(`no arbitrary for zod type ${schema._zod.def.type}`);
}

/** Schemas to sample another way in `fullSample` (for example device profiles). */
export type Samples = ReadonlyMap<$ZodType, unknown>;

/**
 * One valid value of `schema` with every optional field present and every array holding one item,
 * so that `oneChangeVariants` can reach every field.
 */
export function fullSample(schema: $ZodType, samples: Samples = new Map()): unknown {
  if (samples.has(schema)) return samples.get(schema);
  const of = (inner: $ZodType): unknown => fullSample(inner, samples);
  if (schema instanceof z.ZodNumber) {
    const b = numberBounds(schema);
    if (b.min <= 1 && b.max >= 1) return 1;
    return b.minExcluded ? b.min + 1 : b.min;
  }
  if (schema instanceof z.ZodString) return 'a'.repeat(Math.max(1, lengthBounds(schema).minLength));
  if (schema instanceof z.ZodBoolean) return true;
  if (schema instanceof z.ZodUnknown) return 1;
  if (schema instanceof z.ZodEnum) return schema.options[0];
  if (schema instanceof z.ZodLiteral) return [...schema.values][0];
  if (schema instanceof z.ZodExactOptional) return of(schema.unwrap());
  if (schema instanceof z.ZodArray) return Array.from({ length: Math.max(1, lengthBounds(schema).minLength) }, () => of(schema.element));
  if (schema instanceof z.ZodTuple) return schema._zod.def.items.map((item) => of(item));
  if (schema instanceof z.ZodRecord) return { key: of(schema.valueType) };
  if (schema instanceof z.ZodUnion) return of(schema.options[0] ?? z.never());
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, $ZodType> = schema.shape;
    return Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, of(field)]));
  }
  throw new Error(`no sample for zod type ${schema._zod.def.type}`);
}

const WRONG_TYPES: readonly unknown[] = [null, true, '1', 1, [], {}];

/** Values just outside what a leaf schema allows: one past each bound, non-integers, over-long text, near-miss words. */
function leafNearMisses(schema: $ZodType): readonly unknown[] {
  if (schema instanceof z.ZodNumber) {
    const b = numberBounds(schema);
    return [b.min - 1, b.max + 1, b.min, b.max, 0, 0.5, -0.5, 2 ** 53, -(2 ** 53), 1e308].filter(Number.isFinite);
  }
  if (schema instanceof z.ZodString) {
    const { minLength, maxLength } = lengthBounds(schema);
    return [maxLength, maxLength + 1, minLength - 1].filter((length) => length >= 0 && length <= 5000).map((length) => 'x'.repeat(length));
  }
  if (schema instanceof z.ZodEnum || schema instanceof z.ZodLiteral) {
    const words = schema instanceof z.ZodEnum ? schema.options : [...schema.values];
    return [...words.map((word) => `${String(word)}x`), ...words.map((word) => String(word).toUpperCase()), ...words];
  }
  if (schema instanceof z.ZodBoolean) return ['true', 0, 1, false];
  return [];
}

/**
 * Every value that differs from `base` (a value of `schema`) in one place: each leaf replaced by
 * its near misses and by values of the wrong type, each key removed, an unknown key added, each
 * array one past its length limits, each tuple one short or long. Most are refused by the schema;
 * all are compared between a validator and zod.
 */
export function oneChangeVariants(schema: $ZodType, base: unknown): unknown[] {
  const variants: unknown[] = [...leafNearMisses(schema), ...WRONG_TYPES];
  const inner = schema instanceof z.ZodExactOptional ? schema.unwrap() : schema;
  if (inner !== schema) return oneChangeVariants(inner, base);
  if (inner instanceof z.ZodArray && Array.isArray(base) && base.length > 0) {
    const { minLength, maxLength } = lengthBounds(inner);
    for (const length of [0, minLength - 1, maxLength, maxLength + 1]) {
      if (length >= 0 && length <= 5000) variants.push(Array.from({ length }, () => base[0]));
    }
    for (const item of oneChangeVariants(inner.element, base[0])) variants.push([item, ...base.slice(1)]);
  } else if (inner instanceof z.ZodTuple && Array.isArray(base)) {
    variants.push(base.slice(1), [...base, 0]);
    inner._zod.def.items.forEach((item, index) => {
      for (const value of oneChangeVariants(item, base[index])) variants.push(base.map((old, at) => (at === index ? value : old)));
    });
  } else if (inner instanceof z.ZodRecord && base !== null && typeof base === 'object') {
    for (const [key, value] of Object.entries(base)) {
      for (const changed of oneChangeVariants(inner.valueType, value)) variants.push({ ...base, [key]: changed });
    }
  } else if (inner instanceof z.ZodUnion) {
    for (const option of inner.options) variants.push(...oneChangeVariants(option, fullSample(option)));
  } else if (inner instanceof z.ZodObject && base !== null && typeof base === 'object') {
    const shape: Record<string, $ZodType> = inner.shape;
    variants.push({ ...base, extra: 1 });
    for (const [key, field] of Object.entries(shape)) {
      variants.push(Object.fromEntries(Object.entries(base).filter(([name]) => name !== key)));
      for (const changed of oneChangeVariants(field, Reflect.get(base, key))) variants.push({ ...base, [key]: changed });
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
