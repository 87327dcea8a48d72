import type { CallExpr } from './ast.ts';
import { CHAR_PTR, type CType, INT, LONG, pointerTo, type StructType, UINT, ULONG } from './c-type-model.ts';
import { InterpError } from './exec-errors.ts';
import type { Machine } from './machine.ts';
import { intValue, markInit, type RefTarget, unmodeledZero, type Value } from './values.ts';

/*
 * The command line of the C library, as the Ascend samples read theirs: `main(argc, argv)` with a
 * simulated argv (the program's name and the arguments a run declares), `getopt_long` with its
 * `struct option` table, `getopt`, `optarg`/`optind`, and the number parsers (`atoi`, `strtol`…)
 * that turn an argument into a size. All of it is the process's own, no ACL: modelled exactly so
 * the code takes the path its arguments choose.
 */

/** `struct option` of <getopt.h> (glibc): the long options table getopt_long reads. */
export const OPTION_STRUCT: StructType = {
  k: 'struct',
  name: 'option',
  union: false,
  members: [
    { name: 'name', type: CHAR_PTR },
    { name: 'has_arg', type: INT },
    { name: 'flag', type: pointerTo(INT) },
    { name: 'val', type: INT },
  ],
};

/**
 * `struct stat` of <sys/stat.h>, the members the samples read: `stat()` is file I/O, not modeled,
 * and answers as if the path were a regular file (st_mode S_IFREG), as fopen answers as if the file
 * opened; its size is the file's, which PageLens cannot know.
 */
export const STAT_STRUCT: StructType = {
  k: 'struct',
  name: 'stat',
  union: false,
  members: [
    { name: 'st_mode', type: UINT },
    { name: 'st_size', type: LONG },
  ],
};

/** S_IFMT and S_IFREG, S_IFDIR of <sys/stat.h> (Linux). */
const S_IFMT = 0o170000n;
const S_IFREG = 0o100000n;
const S_IFDIR = 0o040000n;

/** Types <getopt.h> and friends declare, by the name `struct X` uses. */
export const C_LIBRARY_STRUCTS: ReadonlyMap<string, StructType> = new Map([
  ['option', OPTION_STRUCT],
  ['stat', STAT_STRUCT],
]);

/** `stat(path, &buf)`: a regular file, as the file calls answer; the size is marked as the file's. */
function statCall(m: Machine, call: CallExpr, name: string, args: readonly Value[]): Value {
  const out = args[1];
  const cell = out?.k === 'ref' ? out.target.cells[out.index] : undefined;
  if (cell?.value.k === 'struct') {
    const mode = cell.value.fields.get('st_mode');
    const size = cell.value.fields.get('st_size');
    if (mode !== undefined) mode.value = intValue(UINT, S_IFREG | 0o644n);
    if (size !== undefined)
      size.value = unmodeledZero(LONG, { line: call.span.line, what: `${name}(…) reports the file's size`, from: 'file' });
    markInit(cell);
  }
  m.marks.note(
    call.span,
    `${name}(…) is file I/O, which is not modeled: PageLens runs no file system; it answers as if the ${name === 'fstat' ? 'descriptor' : 'path'} were a regular file, whose size it cannot know`,
  );
  return intValue(INT, 0n);
}

/** The constants of <getopt.h> (glibc's values). */
export const GETOPT_CONSTANTS: ReadonlyMap<string, bigint> = new Map([
  ['no_argument', 0n],
  ['required_argument', 1n],
  ['optional_argument', 2n],
]);

/** The globals of <getopt.h>: declared for a program that mentions getopt, as the C library defines them. */
const GETOPT_GLOBALS: readonly { readonly name: string; readonly type: CType; readonly value: Value }[] = [
  { name: 'optarg', type: CHAR_PTR, value: { k: 'ptr', type: CHAR_PTR, addr: 0n } },
  { name: 'optind', type: INT, value: intValue(INT, 1n) },
  { name: 'opterr', type: INT, value: intValue(INT, 1n) },
  { name: 'optopt', type: INT, value: intValue(INT, 0n) },
];

export const C_LIBRARY_NAMES: ReadonlySet<string> = new Set([...GETOPT_CONSTANTS.keys(), ...GETOPT_GLOBALS.map((g) => g.name)]);

/** The program's name in argv[0] when a run names none: what the samples' READMEs run. */
export const DEFAULT_PROGRAM_NAME = './main';

/** `argv`: a NULL-terminated array of the argument strings (C11 5.1.2.2.1), as a pointer to its first element. */
export function argvValue(args: readonly string[], type: CType): Value {
  const cells = [...args.map((text) => ({ type: CHAR_PTR, value: { k: 'str', type: CHAR_PTR, text } as Value, init: true }))];
  cells.push({ type: CHAR_PTR, value: { k: 'ptr', type: CHAR_PTR, addr: 0n }, init: true });
  const target: RefTarget = { cells, label: 'argv', isArray: true };
  return { k: 'ref', type: type.k === 'ptr' ? type : pointerTo(CHAR_PTR), target, index: 0 };
}

/** Declares optarg, optind, opterr and optopt in the globals when the code calls getopt or getopt_long. */
export function declareLibraryGlobals(m: Machine, source: string): void {
  if (!/\bgetopt(?:_long)?\s*\(/.test(source)) return;
  const span = { from: 0, to: 0, line: 0, column: 0, endLine: 0 };
  for (const global of GETOPT_GLOBALS)
    if (m.globals.vars.get(global.name) === undefined)
      m.declare(m.globals, global.name, { type: global.type, value: global.value, init: true }, false, 'global', span);
}

function text(value: Value | undefined): string | undefined {
  if (value?.k === 'str' || value?.k === 'string') return value.text;
  return undefined;
}

/** C's strtol on the longest prefix that is a number in `base` (0: 0x… hex, 0… octal, else decimal). */
function parseLong(source: string, base: number): bigint {
  const match = /^\s*([+-]?)(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)?/.exec(source);
  const sign = match?.[1] === '-' ? -1n : 1n;
  const digits = match?.[2];
  if (digits === undefined) return 0n;
  const radix = base !== 0 ? base : /^0[xX]/.test(digits) ? 16 : digits.startsWith('0') && digits.length > 1 ? 8 : 10;
  const body = radix === 16 ? digits.replace(/^0[xX]/, '') : digits;
  let value = 0n;
  for (const c of body) {
    const d = Number.parseInt(c, radix);
    if (Number.isNaN(d)) break;
    value = value * BigInt(radix) + BigInt(d);
  }
  return sign * value;
}

function number(name: string, args: readonly Value[], call: CallExpr): Value {
  const source = text(args[0]);
  if (source === undefined) throw new InterpError('type', `${name} needs a string (const char*), such as optarg or argv[1]`, call.span);
  const base = args[2]?.k === 'int' ? Number(args[2].v) : 10;
  const value = parseLong(source, name === 'atoi' || name === 'atol' || name === 'atoll' ? 10 : base);
  if (name === 'atoi') return intValue(INT, value);
  return intValue(name.startsWith('strtou') ? ULONG : LONG, value);
}

function globalCell(m: Machine, name: string) {
  return m.globals.vars.get(name)?.cell;
}

function setGlobal(m: Machine, name: string, value: Value): void {
  const cell = globalCell(m, name);
  if (cell === undefined) return;
  cell.value = value;
  markInit(cell);
}

/** The strings of argv as getopt sees them: the cells of the array a `char**` points into. */
function argvStrings(argv: Value | undefined, argc: number, call: CallExpr): (string | undefined)[] {
  if (argv?.k !== 'ref') throw new InterpError('type', "getopt needs main's argv (char**) as its second argument", call.span);
  return Array.from({ length: argc }, (_, i) => text(argv.target.cells[argv.index + i]?.value));
}

interface LongOption {
  readonly name: string;
  readonly hasArg: number;
  readonly flag: Value;
  readonly val: number;
}

function longOptions(table: Value | undefined): LongOption[] {
  if (table?.k !== 'ref') return [];
  const out: LongOption[] = [];
  for (const cell of table.target.cells.slice(table.index)) {
    if (cell.value.k !== 'struct') break;
    const name = text(cell.value.fields.get('name')?.value);
    if (name === undefined) break;
    const int = (field: string) => {
      const v = cell.value.k === 'struct' ? cell.value.fields.get(field)?.value : undefined;
      return v?.k === 'int' ? Number(v.v) : 0;
    };
    const flag = cell.value.fields.get('flag')?.value ?? { k: 'void' };
    out.push({ name, hasArg: int('has_arg'), flag, val: int('val') });
  }
  return out;
}

/**
 * glibc's getopt_long in its POSIX order (the first argument that is no option ends the options):
 * `--name value`, `--name=value`, `-x value`, `-xvalue`; `?` for an unknown option or a missing
 * argument. The position lives in optind, so the code may reset it as with glibc.
 */
function getopt(m: Machine, name: string, args: readonly Value[], call: CallExpr): Value {
  const argc = args[0]?.k === 'int' ? Number(args[0].v) : 0;
  const argv = argvStrings(args[1], argc, call);
  const shorts = text(args[2]) ?? '';
  const longs = name === 'getopt_long' ? longOptions(args[3]) : [];
  const optindCell = globalCell(m, 'optind');
  const optind = optindCell?.value.k === 'int' ? Number(optindCell.value.v) : 1;
  const done = (at: number, answer: number, optarg?: string): Value => {
    setGlobal(m, 'optind', intValue(INT, BigInt(at)));
    setGlobal(m, 'optarg', optarg === undefined ? { k: 'ptr', type: CHAR_PTR, addr: 0n } : { k: 'str', type: CHAR_PTR, text: optarg });
    return intValue(INT, BigInt(answer));
  };
  const arg = argv[optind];
  if (optind >= argc || arg === undefined || !arg.startsWith('-') || arg === '-') return done(optind, -1);
  if (arg === '--') return done(optind + 1, -1);
  if (arg.startsWith('--')) {
    const [key = '', inline] = arg.slice(2).split(/=(.*)/s);
    const index = longs.findIndex((option) => option.name === key);
    const option = longs[index];
    if (option === undefined) return done(optind + 1, '?'.charCodeAt(0));
    const out = args[4];
    if (out?.k === 'ref') {
      const cell = out.target.cells[out.index];
      if (cell !== undefined) {
        cell.value = intValue(INT, BigInt(index));
        markInit(cell);
      }
    }
    let next = optind + 1;
    let value = inline;
    if (option.hasArg === 1 && value === undefined) {
      value = argv[next];
      if (value === undefined) return done(next, '?'.charCodeAt(0));
      next += 1;
    }
    if (option.flag.k === 'ref') {
      const cell = option.flag.target.cells[option.flag.index];
      if (cell !== undefined) {
        cell.value = intValue(INT, BigInt(option.val));
        markInit(cell);
      }
      return done(next, 0, value);
    }
    return done(next, option.val, value);
  }
  const letter = arg[1] ?? '';
  const at = shorts.indexOf(letter);
  if (at === -1 || letter === ':') return done(optind + 1, '?'.charCodeAt(0));
  if (shorts[at + 1] !== ':') {
    if (arg.length > 2)
      throw new InterpError('unsupported', `getopt: grouped short options ("${arg}") are not modelled; write them one by one`, call.span);
    return done(optind + 1, letter.charCodeAt(0));
  }
  if (arg.length > 2) return done(optind + 1, letter.charCodeAt(0), arg.slice(2));
  const value = argv[optind + 1];
  if (value === undefined) return done(optind + 1, '?'.charCodeAt(0));
  return done(optind + 2, letter.charCodeAt(0), value);
}

/** Bytes of `source` in UTF-8, what strlen counts. */
function utf8Length(source: string): number {
  let bytes = 0;
  for (const c of source) {
    const code = c.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

const NUMBER_CALLS = new Set(['atoi', 'atol', 'atoll', 'strtol', 'strtoll', 'strtoul', 'strtoull']);

/** A call of the C library this module runs, or undefined for any other name. */
export function callCLibrary(m: Machine, call: CallExpr, name: string, args: readonly Value[]): Value | undefined {
  if (NUMBER_CALLS.has(name)) return number(name, args, call);
  if (name === 'getopt' || name === 'getopt_long') return getopt(m, name, args, call);
  if (name === 'stat' || name === 'lstat' || name === 'fstat') return statCall(m, call, name, args);
  if (name === 'S_ISREG' || name === 'S_ISDIR') {
    const mode = args[0]?.k === 'int' ? args[0].v : 0n;
    return intValue(INT, (mode & S_IFMT) === (name === 'S_ISREG' ? S_IFREG : S_IFDIR) ? 1n : 0n);
  }
  if (name === 'strlen') {
    const source = text(args[0]);
    return source === undefined ? undefined : intValue(ULONG, BigInt(utf8Length(source)));
  }
  if (name === 'strcmp') {
    const a = text(args[0]);
    const b = text(args[1]);
    if (a === undefined || b === undefined) return undefined;
    return intValue(INT, a === b ? 0n : a < b ? -1n : 1n);
  }
  return undefined;
}
