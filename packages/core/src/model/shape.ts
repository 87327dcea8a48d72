import type { DeviceProfile } from '../profiles/profile.ts';

/**
 * The vocabulary in which events and snapshot rows are written down once, as data
 * (model/event-table.ts, model/snapshot-table.ts). From a shape follow its TypeScript type
 * (`ValueOf`, below), its zod schema (protocol/shape-schema.ts), its fast guard
 * (protocol/shape-guard.ts) and the test arbitraries (protocol/shape-arbitrary.test-helper.ts).
 * Every object is strict (no key beyond its fields) and every number a JSON number.
 */
export type Shape =
  | { readonly t: 'count' } // a safe integer ≥ 0: sizes, ids, seqs, addresses and handle values (all below 2^53)
  | { readonly t: 'int' } // a safe integer
  | { readonly t: 'number' } // a finite number
  | { readonly t: 'positive' } // a finite number > 0
  | { readonly t: 'boolean' }
  | { readonly t: 'text'; readonly max?: number } // max in UTF-16 code units
  | { readonly t: 'oneOf'; readonly values: readonly [string, ...string[]] }
  | { readonly t: 'array'; readonly item: Shape; readonly min?: number; readonly max?: number }
  | { readonly t: 'tuple'; readonly items: readonly Shape[] }
  | { readonly t: 'record'; readonly value: Shape } // string keys
  | { readonly t: 'either'; readonly options: readonly Shape[] }
  | { readonly t: 'unknown' } // any JSON value (a call's arguments and out-fields)
  | { readonly t: 'object'; readonly fields: Fields }
  | { readonly t: 'profile' }; // a device profile, checked by its own schema (profiles/profile.ts)

/** A field that may be absent; present, it holds a value of `shape` (never `undefined`). */
export interface Optional<S extends Shape = Shape> {
  readonly t: 'optional';
  readonly shape: S;
}

export type Field = Shape | Optional;

/** The fields of an object, in the order they are checked and written. */
export type Fields = { readonly [name: string]: Field };

export const count = { t: 'count' } as const;
/** An event's position in the host's history. */
export const seq = count;
/** An object's id, unique for the life of a host. */
export const id = count;
/** An address or an aclrt handle value: an exact integer, not hex (events are data for the reducer, not C arguments). */
export const addr = count;
export const int = { t: 'int' } as const;
export const number = { t: 'number' } as const;
export const positive = { t: 'positive' } as const;
export const boolean = { t: 'boolean' } as const;
export const unknown = { t: 'unknown' } as const;
export const deviceProfile = { t: 'profile' } as const;

export function text(max?: number): { readonly t: 'text'; readonly max?: number } {
  return max === undefined ? { t: 'text' } : { t: 'text', max };
}

export const oneOf = <const V extends readonly [string, ...string[]]>(...values: V) => ({ t: 'oneOf', values }) as const;

export const arrayOf = <const S extends Shape>(item: S, bounds: { readonly min?: number; readonly max?: number } = {}) =>
  ({ t: 'array', item, ...bounds }) as const;

export const tuple = <const S extends readonly Shape[]>(...items: S) => ({ t: 'tuple', items }) as const;

export const recordOf = <const S extends Shape>(value: S) => ({ t: 'record', value }) as const;

export const either = <const S extends readonly Shape[]>(...options: S) => ({ t: 'either', options }) as const;

export const object = <const F extends Fields>(fields: F) => ({ t: 'object', fields }) as const;

export const optional = <const S extends Shape>(shape: S): Optional<S> => ({ t: 'optional', shape });

/** The value a shape describes, read-only throughout. */
export type ValueOf<S> = S extends { readonly t: 'count' | 'int' | 'number' | 'positive' }
  ? number
  : S extends { readonly t: 'boolean' }
    ? boolean
    : S extends { readonly t: 'text' }
      ? string
      : S extends { readonly t: 'oneOf'; readonly values: readonly (infer V)[] }
        ? V
        : S extends { readonly t: 'array'; readonly item: infer I }
          ? readonly ValueOf<I>[]
          : S extends { readonly t: 'tuple'; readonly items: infer I }
            ? { readonly [K in keyof I]: ValueOf<I[K]> }
            : S extends { readonly t: 'record'; readonly value: infer V }
              ? Readonly<Record<string, ValueOf<V>>>
              : S extends { readonly t: 'either'; readonly options: readonly (infer O)[] }
                ? ValueOf<O>
                : S extends { readonly t: 'unknown' }
                  ? unknown
                  : S extends { readonly t: 'object'; readonly fields: infer F }
                    ? ObjectOf<F>
                    : S extends { readonly t: 'profile' }
                      ? DeviceProfile
                      : never;

type Flat<T> = { [K in keyof T]: T[K] } & {};

/** The object that `fields` describe: a read-only key for each field, optional where the field is. */
export type ObjectOf<F> = Flat<
  { readonly [K in keyof F as F[K] extends Optional ? never : K]: ValueOf<F[K]> } & {
    readonly [K in keyof F as F[K] extends Optional ? K : never]?: F[K] extends Optional<infer S> ? ValueOf<S> : never;
  }
>;
