import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkArgs, checkEachParam } from './check-args.ts';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS } from './functions.ts';

/** Values of every shape a caller might pass, valid and invalid for one parameter type or another. */
const VALUES: readonly unknown[] = [
  0,
  1,
  -1,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  1.5,
  Number.NaN,
  '0x10',
  '0x',
  '0x20000000000000',
  'text',
  null,
  undefined,
  true,
  {},
  [],
  [1, 2],
  { id: 0, type: 1 },
  { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 },
];

describe('checkArgs', () => {
  it('gives exactly the general check’s verdict, whatever the keys and their order (property)', () => {
    const call = fc.constantFrom(...ACL_FUNCTION_NAMES).chain((fn) => {
      const names = ACL_FUNCTIONS[fn].params.map((param) => param.name);
      const entry = fc.tuple(fc.oneof(fc.constantFrom(...names, 'extra'), fc.string({ maxLength: 3 })), fc.constantFrom(...VALUES));
      const inputs = ACL_FUNCTIONS[fn].params.filter((param) => param.dir === 'in').map((param) => param.name);
      // Mostly the inputs in catalogue order (the fast path), then drops, extras and reorderings.
      const inOrder = fc.array(fc.constantFrom(...VALUES), { minLength: inputs.length, maxLength: inputs.length });
      return fc.record({
        fn: fc.constant(fn),
        values: inOrder,
        drop: fc.option(fc.nat(), { nil: undefined }),
        extras: fc.array(entry, { maxLength: 2 }),
        reverse: fc.boolean(),
      });
    });
    fc.assert(
      fc.property(call, ({ fn, values, drop, extras, reverse }) => {
        const inputs = ACL_FUNCTIONS[fn].params.filter((param) => param.dir === 'in').map((param) => param.name);
        let entries: [string, unknown][] = inputs.map((name, index) => [name, values[index]]);
        if (drop !== undefined && entries.length > 0) entries.splice(drop % entries.length, 1);
        entries.push(...extras);
        if (reverse) entries = entries.reverse();
        const args = Object.fromEntries(entries);
        expect(checkArgs(fn, args)).toEqual(checkEachParam(fn, args));
      }),
      { numRuns: 3000 },
    );
  });

  it('leaves to the general check what for…in does not show: non-enumerable inputs, inherited keys', () => {
    const hidden = Object.defineProperty({ policy: 0 }, 'size', { value: 10, enumerable: false });
    expect(checkArgs('aclrtMalloc', hidden)).toEqual({ ok: true });
    const inherited = Object.assign(Object.create({ size: 10 }), { policy: 0 });
    expect(checkArgs('aclrtMalloc', inherited)).toEqual({
      ok: false,
      field: 'size',
      message: 'size: missing; aclrtMalloc takes size, policy',
    });
    expect(checkArgs('aclrtMalloc', { size: 10, policy: 0, devPtr: '0x1' })).toEqual({
      ok: false,
      field: 'devPtr',
      message: 'devPtr: is an out-parameter of aclrtMalloc; its value comes back in the result, do not pass it',
    });
    expect(checkArgs('aclrtMalloc', { size: 10, policy: 'x' }).ok).toBe(false);
  });
});
