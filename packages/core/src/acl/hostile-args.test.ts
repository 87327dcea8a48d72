import { describe, expect, it } from 'vitest';
import { checkArgs } from './check-args.ts';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS } from './functions.ts';
import { normalizeArgs } from './wire-args.ts';

/** `depth` arrays, one inside the other, built without recursion. */
function nestedArrays(depth: number): unknown[] {
  let value: unknown[] = [];
  for (let level = 1; level < depth; level += 1) value = [value];
  return value;
}

const wideObject: Record<string, number> = {};
for (let index = 0; index < 100_000; index += 1) wideObject[`k${index}`] = index;

/**
 * Values no parameter should crash on or echo in full. Arguments reach these checks from in-process
 * callers too (the web forms, the interpreter), not only through parseClientMessage's depth limit.
 */
const HOSTILE: readonly [string, unknown][] = [
  ['5,000 nested arrays', nestedArrays(5000)],
  ['524,288 nested arrays', nestedArrays(512 * 1024)],
  ['a 1 MiB string', 's'.repeat(1 << 20)],
  ['a 1 MiB pointer', `0x${'f'.repeat(1 << 20)}`],
  ['1 MiB of flag names', 'ACL_HOST_REG_PINNED|'.repeat(50_000)],
  ['an object of 100,000 keys', wideObject],
  ['an array of 1,000,000 numbers', new Array<number>(1_000_000).fill(1)],
  ['an array of 100,000 nested values', Array.from({ length: 100_000 }, () => nestedArrays(40))],
  ['NaN', Number.NaN],
  ['-Infinity', Number.NEGATIVE_INFINITY],
  ['2^64', 2 ** 64],
  ['-2^63', -(2 ** 63)],
];

/** The longest answer a refusal may give: a sentence (an enum's names at most), never the value. */
const SHORT = 600;

describe('checkArgs and normalizeArgs on hostile values', () => {
  it.each(HOSTILE)('every input of every function: %s gets a short verdict', (_name, value) => {
    let refused = 0;
    for (const fn of ACL_FUNCTION_NAMES) {
      for (const param of ACL_FUNCTIONS[fn].params.filter((p) => p.dir === 'in')) {
        const args = { [param.name]: value };
        const normalized = normalizeArgs(fn, args);
        const check = normalized.ok ? checkArgs(fn, normalized.value) : normalized;
        if (check.ok) continue;
        refused += 1;
        expect(check.message.length, `${fn}.${param.name}`).toBeLessThan(SHORT);
        expect(check.field.length, `${fn}.${param.name}`).toBeLessThan(SHORT);
      }
    }
    // Every input is refused for every one of these values (none is any C value).
    expect(refused).toBe(ACL_FUNCTION_NAMES.reduce((sum, fn) => sum + ACL_FUNCTIONS[fn].params.filter((p) => p.dir === 'in').length, 0));
  });

  it('quotes a hostile value by its first characters and names the parameter', () => {
    expect(checkArgs('aclrtMalloc', { size: nestedArrays(5000), policy: 0 })).toEqual({
      ok: false,
      field: 'size',
      message: `size: received ${'['.repeat(60)}…; expected a whole number ≥ 0`,
    });
    expect(normalizeArgs('aclrtHostRegisterV2', { ptr: '0x1000', size: 4096, flag: `ACL_${'X'.repeat(1 << 20)}` })).toEqual({
      ok: false,
      field: 'flag',
      message: `flag: "ACL_${'X'.repeat(55)}… is not a name in ACL_HOST_REG; use a number or one of ACL_HOST_REG_MAPPED, ACL_HOST_REG_IOMEMORY, ACL_HOST_REG_READONLY, ACL_HOST_REG_PINNED`,
    });
  });

  it('cuts a client key of 1 MiB in the field and the message', () => {
    const key = 'k'.repeat(1 << 20);
    const extra = checkArgs('aclrtFree', { devPtr: '0x0', [key]: 1 });
    expect(extra).toEqual({
      ok: false,
      field: `${'k'.repeat(60)}…`,
      message: `${'k'.repeat(60)}…: aclrtFree has no such parameter; it takes devPtr`,
    });
    const inStruct = checkArgs('aclrtMemGetAllocationGranularity', {
      prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0, [key]: 1 },
      option: 0,
    });
    expect(inStruct).toMatchObject({ ok: false, field: `prop.${'k'.repeat(60)}…` });
  });

  it('refuses keys other than attr and value in an aclrtMallocConfig attribute', () => {
    const cfg = (attribute: object) => ({ size: 4096, policy: 0, cfg: { attrs: [attribute], numAttrs: 1 } });
    expect(checkArgs('aclrtMallocWithCfg', cfg({ attr: 1, value: { moduleId: 1 } }))).toEqual({ ok: true });
    expect(checkArgs('aclrtMallocWithCfg', cfg({ attr: 1, value: { moduleId: 1 }, extra: nestedArrays(30) }))).toEqual({
      ok: false,
      field: 'cfg.attrs[0].extra',
      message: `cfg.attrs[0].extra: received ${'['.repeat(30)}${']'.repeat(30)}; expected only the fields attr and value`,
    });
  });
});
