/**
 * Every pickle opcode of protocols 0–5, written once: its byte, its name (as CPython's
 * `Lib/pickletools.py` names it) and whether PageLens's restricted reader accepts it. The reader's
 * dispatch handles exactly the accepted ones; the others are named in its refusal.
 *
 * Accepted: the binary data opcodes a memory snapshot is made of (protocol 2–5 output of CPython's
 * pickler for dicts, lists, tuples, str, bytes, int, float, bool and None) and the framing and memo
 * opcodes around them. Refused: everything that names, imports, calls or builds a Python object
 * (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT*, PERSID, BINPERSID), the
 * out-of-band buffers of protocol 5 (NEXT_BUFFER, READONLY_BUFFER: they point outside the file) and
 * the text opcodes of protocol 0, which no protocol 2–5 pickler writes.
 */
export type OpcodeUse = 'data' | 'object' | 'text' | 'out-of-band';

interface OpcodeFacts {
  readonly byte: number;
  readonly use: OpcodeUse;
}

const op = (char: string | number, use: OpcodeUse): OpcodeFacts => ({ byte: typeof char === 'number' ? char : char.charCodeAt(0), use });

export const PICKLE_OPCODES = {
  MARK: op('(', 'data'),
  STOP: op('.', 'data'),
  POP: op('0', 'data'),
  POP_MARK: op('1', 'data'),
  DUP: op('2', 'data'),
  FLOAT: op('F', 'text'),
  INT: op('I', 'text'),
  BININT: op('J', 'data'),
  BININT1: op('K', 'data'),
  LONG: op('L', 'text'),
  BININT2: op('M', 'data'),
  NONE: op('N', 'data'),
  PERSID: op('P', 'object'),
  BINPERSID: op('Q', 'object'),
  REDUCE: op('R', 'object'),
  STRING: op('S', 'text'),
  BINSTRING: op('T', 'data'),
  SHORT_BINSTRING: op('U', 'data'),
  UNICODE: op('V', 'text'),
  BINUNICODE: op('X', 'data'),
  APPEND: op('a', 'data'),
  BUILD: op('b', 'object'),
  GLOBAL: op('c', 'object'),
  DICT: op('d', 'data'),
  EMPTY_DICT: op('}', 'data'),
  APPENDS: op('e', 'data'),
  GET: op('g', 'text'),
  BINGET: op('h', 'data'),
  INST: op('i', 'object'),
  LONG_BINGET: op('j', 'data'),
  LIST: op('l', 'data'),
  EMPTY_LIST: op(']', 'data'),
  OBJ: op('o', 'object'),
  PUT: op('p', 'text'),
  BINPUT: op('q', 'data'),
  LONG_BINPUT: op('r', 'data'),
  SETITEM: op('s', 'data'),
  TUPLE: op('t', 'data'),
  EMPTY_TUPLE: op(')', 'data'),
  SETITEMS: op('u', 'data'),
  BINFLOAT: op('G', 'data'),
  PROTO: op(0x80, 'data'),
  NEWOBJ: op(0x81, 'object'),
  EXT1: op(0x82, 'object'),
  EXT2: op(0x83, 'object'),
  EXT4: op(0x84, 'object'),
  TUPLE1: op(0x85, 'data'),
  TUPLE2: op(0x86, 'data'),
  TUPLE3: op(0x87, 'data'),
  NEWTRUE: op(0x88, 'data'),
  NEWFALSE: op(0x89, 'data'),
  LONG1: op(0x8a, 'data'),
  LONG4: op(0x8b, 'data'),
  BINBYTES: op('B', 'data'),
  SHORT_BINBYTES: op('C', 'data'),
  SHORT_BINUNICODE: op(0x8c, 'data'),
  BINUNICODE8: op(0x8d, 'data'),
  BINBYTES8: op(0x8e, 'data'),
  EMPTY_SET: op(0x8f, 'data'),
  ADDITEMS: op(0x90, 'data'),
  FROZENSET: op(0x91, 'data'),
  NEWOBJ_EX: op(0x92, 'object'),
  STACK_GLOBAL: op(0x93, 'object'),
  MEMOIZE: op(0x94, 'data'),
  FRAME: op(0x95, 'data'),
  BYTEARRAY8: op(0x96, 'data'),
  NEXT_BUFFER: op(0x97, 'out-of-band'),
  READONLY_BUFFER: op(0x98, 'out-of-band'),
} as const satisfies Record<string, OpcodeFacts>;

export type OpcodeName = keyof typeof PICKLE_OPCODES;

const BY_BYTE: ReadonlyMap<number, OpcodeName> = new Map(
  Object.entries(PICKLE_OPCODES).flatMap(([name, facts]) => (isOpcodeName(name) ? [[facts.byte, name] as const] : [])),
);

function isOpcodeName(name: string): name is OpcodeName {
  return Object.hasOwn(PICKLE_OPCODES, name);
}

export function opcodeName(byte: number): OpcodeName | undefined {
  return BY_BYTE.get(byte);
}

const WHY: Readonly<Record<Exclude<OpcodeUse, 'data'>, string>> = {
  object: 'it names, imports, calls or builds a Python object, and PageLens reads data only (a memory snapshot needs none)',
  text: 'it is a protocol 0 text opcode, which no protocol 2–5 pickler writes',
  'out-of-band': 'it refers to a protocol 5 buffer outside the file',
};

/** The refusal for a byte where an opcode was expected: which opcode (if any) and why it is not read. */
export function refusalOf(byte: number): string {
  const name = opcodeName(byte);
  const hex = `0x${byte.toString(16).padStart(2, '0')}`;
  if (name === undefined) return `byte ${hex} is not a pickle opcode (protocols 0–5): the file is damaged or not a pickle`;
  const use = PICKLE_OPCODES[name].use;
  if (use === 'data') return `opcode ${name} (${hex}) is not handled`;
  return `opcode ${name} (${hex}) is refused: ${WHY[use]}`;
}
