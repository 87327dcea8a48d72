import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/formats/format-error.ts';
import { PICKLE_OPCODES } from '../../src/formats/pickle-opcodes.ts';
import { PickleReader, readPickle } from '../../src/formats/pickle-reader.ts';
import type { PickleValue } from '../../src/formats/pickle-values.ts';
import { float, type Py, rawPickle, tuple, writePickle } from './pickle-writer.ts';

const SAMPLE: Py = {
  segments: [{ device: 0, address: 0x12c0_0000_0000, total_size: 2097152, blocks: [{ state: 'inactive', size: 512 }] }],
  ints: [0, 1, 255, 256, 65535, 65536, -1, -129, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 40, -(2 ** 47), Number.MAX_SAFE_INTEGER],
  big: [2n ** 53n, 2n ** 63n - 1n, 2n ** 64n - 1n, -(2n ** 63n), 2n ** 100n + 7n],
  text: ['', 'ascii', 'naïve ünïcode', '中文路径/模型.py', '😀 astral', 'x'.repeat(300)],
  floats: [float(1.5), float(-0.25), float(3)],
  flags: [true, false, null],
  tuples: [tuple(), tuple(1), tuple(1, 2), tuple(1, 2, 3), tuple(1, 2, 3, 4)],
  bytes: new Uint8Array([0, 1, 2, 255]),
  many: Array.from({ length: 2500 }, (_, i) => i),
};

const EXPECTED: PickleValue = {
  segments: [{ device: 0, address: 0x12c0_0000_0000, total_size: 2097152, blocks: [{ state: 'inactive', size: 512 }] }],
  ints: [0, 1, 255, 256, 65535, 65536, -1, -129, 2 ** 31 - 1, -(2 ** 31), 2 ** 31, 2 ** 40, -(2 ** 47), Number.MAX_SAFE_INTEGER],
  big: [2n ** 53n, 2n ** 63n - 1n, 2n ** 64n - 1n, -(2n ** 63n), 2n ** 100n + 7n],
  text: ['', 'ascii', 'naïve ünïcode', '中文路径/模型.py', '😀 astral', 'x'.repeat(300)],
  floats: [1.5, -0.25, 3],
  flags: [true, false, null],
  tuples: [[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4]],
  bytes: new Uint8Array([0, 1, 2, 255]),
  many: Array.from({ length: 2500 }, (_, i) => i),
};

function errorOf(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('expected a FormatError');
}

describe('restricted pickle reader', () => {
  it.each([2, 3, 4, 5] as const)('reads protocol %i data exactly, big integers as bigint', (protocol) => {
    const value = readPickle(writePickle(SAMPLE, { protocol }));
    expect(value).toEqual(EXPECTED);
  });

  it('keeps integers past 2^53 exact and below it as numbers', () => {
    const value = readPickle(writePickle([2 ** 53 - 1, 2n ** 53n, 2n ** 53n + 1n]));
    expect(value).toEqual([9007199254740991, 9007199254740992n, 9007199254740993n]);
    expect(typeof (Array.isArray(value) ? value[0] : undefined)).toBe('number');
  });

  it('gives the same value for every way of cutting the input into chunks', () => {
    const bytes = writePickle(SAMPLE, { protocol: 4, frameBytes: 97 });
    for (const size of [1, 2, 3, 7, 64, 1000]) {
      const reader = new PickleReader();
      for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
      expect(reader.end()).toEqual(EXPECTED);
      expect(reader.bytesRead).toBe(bytes.length);
    }
  });

  it('a __proto__ key is data, not the prototype', () => {
    const value = readPickle(writePickle({ ['__proto__']: 'x', a: 1 } as Py));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__', 'a']);
  });

  describe('refuses what is not data, naming the opcode and the byte', () => {
    it('GLOBAL, with the name it asked for', () => {
      const error = errorOf(() => readPickle(rawPickle(0x80, 2, 'cos\nsystem\n', 'X', [4, 0, 0, 0], 'echo', 0x85, 'R.')));
      expect(error.message).toContain('opcode GLOBAL (0x63) is refused');
      expect(error.message).toContain('"os.system"');
      expect(error.message).toContain('at byte 2');
      expect(error.at).toBe(2);
    });

    it('STACK_GLOBAL, with the names on the stack', () => {
      const error = errorOf(() => readPickle(rawPickle(0x80, 4, 0x8c, 8, 'builtins', 0x8c, 4, 'eval', 0x93, '.')));
      expect(error.message).toContain('STACK_GLOBAL (0x93) is refused');
      expect(error.message).toContain('"builtins.eval"');
      expect(error.at).toBe(18);
    });

    it.each(
      Object.entries(PICKLE_OPCODES)
        .filter(([, facts]) => facts.use !== 'data')
        .map(([name, facts]) => [name, facts.byte] as const),
    )('%s', (name, byte) => {
      const error = errorOf(() => readPickle(rawPickle(0x80, 2, 'N', byte, '.')));
      expect(error.message).toContain(`opcode ${name} (0x${byte.toString(16).padStart(2, '0')}) is refused`);
      expect(error.at).toBe(3);
    });

    it('a byte that is no opcode at all says the file is not a pickle', () => {
      expect(errorOf(() => readPickle(new TextEncoder().encode('{"json": true}'))).message).toContain('not a pickle');
    });

    it('a protocol above 5', () => {
      expect(errorOf(() => readPickle(rawPickle(0x80, 6, 'N.'))).message).toContain('protocol 6');
    });
  });

  describe('bounds what the input declares', () => {
    it('a length beyond the input is "truncated at byte N", with no allocation', () => {
      // BINUNICODE declaring 4 GiB − 1 bytes in a 12-byte file.
      const error = errorOf(() => readPickle(rawPickle(0x80, 2, 'X', [0xff, 0xff, 0xff, 0x7f], 'abc.'), { maxItemBytes: 2 ** 32 }));
      expect(error.message).toMatch(/^truncated at byte 11: BINUNICODE at byte 2 needs 2147483652 bytes, 9 remain/);
      expect(error.at).toBe(11);
    });

    it('a length beyond the item limit is refused before any byte of it is read', () => {
      const reader = new PickleReader({ maxItemBytes: 1000 });
      const error = errorOf(() => reader.push(rawPickle(0x80, 2, 'X', [0x01, 0x10, 0, 0])));
      expect(error.message).toContain('BINUNICODE declares 4097 bytes, more than the 1000-byte limit');
    });

    it('an 8-byte length of 2^64 − 1', () => {
      const error = errorOf(() => readPickle(rawPickle(0x80, 4, 0x8e, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], '.')));
      expect(error.message).toContain('BINBYTES8 declares');
    });

    it('a LONG4 wider than the limit', () => {
      expect(errorOf(() => readPickle(rawPickle(0x80, 2, 0x8b, [0, 0, 0, 1], '.'))).message).toContain('LONG4 of 16777216 bytes');
    });

    it('deep nesting: lists inside lists past the depth limit', () => {
      const deep = rawPickle(0x80, 2, ...Array(100).fill(']'), ...Array(99).fill('a'), '.');
      const error = errorOf(() => readPickle(deep));
      expect(error.message).toContain('nesting deeper than 64 levels');
      const shallow = rawPickle(0x80, 2, ...Array(30).fill(']'), ...Array(29).fill('a'), '.');
      let value = readPickle(shallow);
      let depth = 0;
      while (Array.isArray(value)) {
        depth += 1;
        value = value[0] ?? null;
      }
      expect(depth).toBe(30);
    });

    it('deep nesting built through the memo with a shallow stack', () => {
      // [] PUT0 POP, then per round: [] GET(previous) APPEND PUT(next) POP: the stack never holds more than two
      // values, yet each round nests one level deeper; the depth recorded in the memo still counts.
      const parts: (number | string | number[])[] = [0x80, 2, ']', 0x71, 0, '0'];
      for (let i = 1; i < 80; i += 1) parts.push(']', 0x68, i - 1, 'a', 0x71, i, '0');
      parts.push(0x68, 79, '.');
      expect(errorOf(() => readPickle(rawPickle(...parts))).message).toContain('nesting deeper than 64 levels');
    });

    it('a cycle: a list holding itself, directly or through another', () => {
      const direct = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, 0x68, 0, 'a.')));
      expect(direct.message).toContain('APPEND would put a container inside itself (a cycle)');
      // Through another: a = []; b = [a]; a.append(b). b holds a while a is open, so a is frozen.
      const indirect = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, ']', 0x68, 0, 'a', 'a.')));
      expect(indirect.message).toContain('APPEND changes a container that a value above it already holds through the memo');
      const tupled = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, 0x68, 0, 0x85, 'a.')));
      expect(tupled.message).toContain('APPEND changes a container that a value above it already holds through the memo');
      // Directly through a batch: a = []; MARK a-from-the-memo APPENDS.
      const batched = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, '(', 0x68, 0, 'e.')));
      expect(batched.message).toContain('APPENDS would put a container inside itself (a cycle)');
      // Frozen, then reached again: b holds a; a later dict also takes a; then a grows through a batch.
      const late = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, '(', ']', 0x68, 0, 'a', 'e.')));
      expect(late.message).toContain('APPENDS changes a container that a value above it already holds through the memo');
    });

    it('never answers a cycle, or nesting past maxDepth, for any sequence of container, memo and stack opcodes', () => {
      // A small alphabet that can build every shape of sharing: containers, MEMOIZE, BINGET of any
      // entry, the placing opcodes with and without MARK, tuples, POP.
      const op = fc.oneof(
        { arbitrary: fc.constant([0x5d, 0x94]), weight: 4 }, // EMPTY_LIST MEMOIZE
        { arbitrary: fc.constant([0x7d, 0x94]), weight: 2 }, // EMPTY_DICT MEMOIZE
        { arbitrary: fc.constant([0x5d]), weight: 1 }, // EMPTY_LIST
        { arbitrary: fc.constant([0x28]), weight: 2 }, // MARK
        { arbitrary: fc.constant([0x94]), weight: 1 }, // MEMOIZE
        { arbitrary: fc.nat(3).map((k) => [0x68, k]), weight: 4 }, // BINGET k
        { arbitrary: fc.constant([0x61]), weight: 4 }, // APPEND
        { arbitrary: fc.constant([0x65]), weight: 2 }, // APPENDS
        { arbitrary: fc.constant([0x73]), weight: 1 }, // SETITEM
        { arbitrary: fc.constant([0x75]), weight: 1 }, // SETITEMS
        { arbitrary: fc.constant([0x85]), weight: 1 }, // TUPLE1
        { arbitrary: fc.constant([0x74]), weight: 1 }, // TUPLE
        { arbitrary: fc.constant([0x30]), weight: 1 }, // POP
        { arbitrary: fc.nat(3).map((n) => [0x4b, n]), weight: 2 }, // BININT1 n
      );
      const maxDepth = 5;
      /** The value's nesting depth, throwing on a cycle (an object met again on its own path). */
      const depthOf = (value: PickleValue, path: Set<object>, known: Map<object, number>): number => {
        if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return 0;
        const seen = known.get(value);
        if (seen !== undefined) return seen;
        if (path.has(value)) throw new Error('a cycle');
        path.add(value);
        const children = Array.isArray(value) ? value : Object.values(value);
        const depth = 1 + children.reduce<number>((most, child) => Math.max(most, depthOf(child, path, known)), 0);
        path.delete(value);
        known.set(value, depth);
        return depth;
      };
      let read = 0;
      fc.assert(
        fc.property(fc.array(op, { maxLength: 24 }), (ops) => {
          const bytes = rawPickle(0x80, 4, ...ops, 0x2e);
          let value: PickleValue;
          try {
            value = readPickle(bytes, { maxDepth });
          } catch (error) {
            if (error instanceof FormatError) return;
            throw error;
          }
          read += 1;
          expect(depthOf(value, new Set(), new Map())).toBeLessThanOrEqual(maxDepth);
        }),
        { numRuns: 50_000, seed: 16 },
      );
      // Many sequences are refused; enough must be read for the property to say something.
      expect(read).toBeGreaterThan(1000);
    });

    it('a container shared while still open, as torch shares one empty frames list between a segment and its blocks, is not a cycle', () => {
      // {'frames': F, 'blocks': [{'frames': F}]} with F = [] referenced from the memo while the
      // segment dict's items are still on the stack (CPython's pickler, torch's memory snapshots).
      // }  PUT0 MARK 'frames' ] PUT1 'blocks' ] PUT2 } PUT3 'frames' GET1 SETITEM APPEND SETITEMS
      const value = readPickle(
        rawPickle(
          0x80,
          2,
          '}',
          0x71,
          0,
          '(',
          'U',
          6,
          'frames',
          ']',
          0x71,
          1,
          'U',
          6,
          'blocks',
          ']',
          0x71,
          2,
          '}',
          0x71,
          3,
          'U',
          6,
          'frames',
          0x68,
          1,
          's',
          'a',
          'u.',
        ),
      ) as { frames: unknown[]; blocks: { frames: unknown[] }[] };
      expect(value).toEqual({ frames: [], blocks: [{ frames: [] }] });
      expect(value.blocks[0]?.frames).toBe(value.frames);
    });

    it('the same finished dict twice in one batch, as a repeated stack frame is written, is not a cycle', () => {
      // L = [F, F]: EMPTY_LIST PUT0 MARK EMPTY_DICT PUT1 'k' 'v' SETITEM BINGET1 APPENDS
      const value = readPickle(rawPickle(0x80, 2, ']', 0x71, 0, '(', '}', 0x71, 1, 'U', 1, 'k', 'U', 1, 'v', 's', 0x68, 1, 'e.'));
      expect(value).toEqual([{ k: 'v' }, { k: 'v' }]);
      expect(Array.isArray(value) && value[0] === value[1]).toBe(true);
    });

    it('a change to a container after it was shared through the memo', () => {
      // a = []; b = [a]; then a (from the memo) grows: b's depth would hide it.
      const error = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, '0', ']', 0x68, 0, 'a', 0x68, 0, 'N', 'a', '0.')));
      expect(error.message).toContain('APPEND changes a container taken from the memo');
    });

    it('a container stored in the memo twice while it is open, which would let a reference through the second entry close a cycle', () => {
      // [] PUT0 PUT1 GET1 APPEND: the list would hold itself.
      const error = errorOf(() => readPickle(rawPickle(0x80, 2, ']', 0x71, 0, 0x71, 1, 0x68, 1, 'a.')));
      expect(error.message).toContain('BINPUT stores a container the memo already holds');
    });

    it('a memo reference never stored', () => {
      expect(errorOf(() => readPickle(rawPickle(0x80, 2, 0x68, 9, '.'))).message).toContain('BINGET 9 names a memo entry never stored');
    });
  });

  describe('truncated input', () => {
    const bytes = writePickle(SAMPLE, { protocol: 4 });

    it('says where it ends at every cut point it is given', () => {
      for (const cut of [1, 2, 10, 11, 50, bytes.length - 1]) {
        const error = errorOf(() => readPickle(bytes.subarray(0, cut)));
        expect(error.message).toMatch(new RegExp(`^truncated at byte ${cut}:`));
      }
    });

    it('streaming without a known size reports it at end()', () => {
      const reader = new PickleReader();
      reader.push(bytes.subarray(0, 100));
      expect(errorOf(() => reader.end()).message).toMatch(/^truncated at byte 100: /);
    });

    it('an empty file', () => {
      expect(errorOf(() => readPickle(new Uint8Array(0))).message).toContain('empty');
    });
  });
});
