import { z } from 'zod';
import type { Field, Shape } from '../model/shape.ts';
import { DeviceProfile } from '../profiles/profile.ts';

/**
 * The zod schema of a shape (model/shape.ts): what the wire accepts, and the words of its refusals.
 * Each shape becomes the zod construct the hand-written schemas used, check for check and field for
 * field in the table's order, so that errors name the same first issue.
 */

type Items<I> = { -readonly [K in keyof I]: SchemaOf<I[K]> };
type FieldSchema<F> = F extends { readonly t: 'optional'; readonly shape: infer S } ? z.ZodExactOptional<SchemaOf<S>> : SchemaOf<F>;
type ShapeOfFields<F> = { -readonly [K in keyof F]: FieldSchema<F[K]> };

/** The zod type `schemaOf(shape)` returns, so that `z.infer` of it is `ValueOf` of the shape. */
export type SchemaOf<S> = S extends { readonly t: 'count' | 'int' | 'number' | 'positive' }
  ? z.ZodNumber
  : S extends { readonly t: 'boolean' }
    ? z.ZodBoolean
    : S extends { readonly t: 'text' }
      ? z.ZodString
      : S extends { readonly t: 'oneOf'; readonly values: readonly [infer V extends string] }
        ? z.ZodLiteral<V>
        : S extends { readonly t: 'oneOf'; readonly values: readonly (infer V extends string)[] }
          ? z.ZodEnum<{ [K in V]: K }>
          : S extends { readonly t: 'array'; readonly item: infer I }
            ? z.ZodArray<SchemaOf<I>>
            : S extends { readonly t: 'tuple'; readonly items: infer I }
              ? Items<I> extends infer T extends readonly z.core.SomeType[]
                ? z.ZodTuple<T, null>
                : never
              : S extends { readonly t: 'record'; readonly value: infer V }
                ? z.ZodRecord<z.ZodString, SchemaOf<V>>
                : S extends { readonly t: 'either'; readonly options: infer O }
                  ? Items<O> extends infer T extends readonly z.core.SomeType[]
                    ? z.ZodUnion<T>
                    : never
                  : S extends { readonly t: 'unknown' }
                    ? z.ZodUnknown
                    : S extends { readonly t: 'object'; readonly fields: infer F }
                      ? ShapeOfFields<F> extends infer T extends z.core.$ZodShape
                        ? z.ZodObject<T, z.core.$strict>
                        : never
                      : S extends { readonly t: 'profile' }
                        ? typeof DeviceProfile
                        : never;

const INT = z.number().int().safe();
const COUNT = INT.nonnegative();
const NUMBER = z.number();
const POSITIVE = z.number().positive();
const BOOLEAN = z.boolean();
const UNKNOWN = z.unknown();

/** Shapes shared between rows (a reason, a placement's runs, a pool sample) get one schema. */
const built = new WeakMap<Shape, z.ZodType>();

function fieldSchema(field: Field): z.ZodType {
  return field.t === 'optional' ? build(field.shape).exactOptional() : build(field);
}

function nonEmpty<T>(items: readonly T[]): [T, ...T[]] | undefined {
  const [first, ...rest] = items;
  return first === undefined ? undefined : [first, ...rest];
}

function construct(shape: Shape): z.ZodType {
  switch (shape.t) {
    case 'count':
      return COUNT;
    case 'int':
      return INT;
    case 'number':
      return NUMBER;
    case 'positive':
      return POSITIVE;
    case 'boolean':
      return BOOLEAN;
    case 'unknown':
      return UNKNOWN;
    case 'profile':
      return DeviceProfile;
    case 'text':
      return shape.max === undefined ? z.string() : z.string().max(shape.max);
    case 'oneOf':
      return shape.values.length === 1 ? z.literal(shape.values[0]) : z.enum(shape.values);
    case 'array': {
      let array = z.array(build(shape.item));
      if (shape.min !== undefined) array = array.min(shape.min);
      return shape.max === undefined ? array : array.max(shape.max);
    }
    case 'tuple': {
      const items = nonEmpty(shape.items.map(build));
      return items === undefined ? z.tuple([]) : z.tuple(items);
    }
    case 'record':
      return z.record(z.string(), build(shape.value));
    case 'either':
      return z.union(shape.options.map(build));
    case 'object':
      return z.strictObject(Object.fromEntries(Object.entries(shape.fields).map(([name, field]) => [name, fieldSchema(field)])));
  }
}

function build(shape: Shape): z.ZodType {
  let schema = built.get(shape);
  if (schema === undefined) {
    schema = construct(shape);
    built.set(shape, schema);
  }
  return schema;
}

/**
 * The zod schema of `shape`. Its static type is `SchemaOf<S>`, which TypeScript cannot follow
 * through the switch above: the one cast of this file. event-schemas.ts checks at compile time that
 * `z.infer` of the result is `ValueOf<S>`, and the guard tests compare what the schemas accept with
 * the guards of the same table.
 */
export function schemaOf<const S extends Shape>(shape: S): SchemaOf<S> {
  return build(shape) as SchemaOf<S>;
}
