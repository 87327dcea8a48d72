import type { CallExpr } from './ast.ts';
import { callCLibrary } from './c-library.ts';
import { INT, LONG, SIZE_T, sizeOf, VOID_PTR } from './c-type-model.ts';
import { evaluateAll } from './eval.ts';
import type { Machine, Scope } from './machine.ts';
import { intValue, markInit, showValue, unmodeledZero, type Value, zeroValue } from './values.ts';

/*
 * Calls PageLens does not model: printf-style output, logging and checking macros such as
 * INFO_LOG(…) and CHECK_ERROR(expr), kernel launches, helpers defined elsewhere. Their arguments
 * are evaluated (so `CHECK_ERROR(aclInit(nullptr))` still calls aclInit), a note goes on the line,
 * and the call returns 0. A name that looks like ACL but is not in the catalogue is a warning.
 */

const PRINTERS: Readonly<Record<string, number>> = { printf: 0, fprintf: 1, puts: 0 };
const SPEC = /%([-+ 0#]*)(\d*)(?:\.(\d+))?(?:hh|h|ll|l|z|j|t|L)?([diuxXopscfFeEgG%])/g;

function formatOne(value: Value | undefined, conversion: string, precision: string | undefined): string {
  if (value === undefined) return '';
  switch (conversion) {
    case 'd':
    case 'i':
    case 'u':
      return value.k === 'int' ? String(value.v) : showValue(value);
    case 'x':
    case 'X': {
      const text = value.k === 'int' ? BigInt.asUintN(64, value.v).toString(16) : value.k === 'ptr' ? value.addr.toString(16) : '?';
      return conversion === 'X' ? text.toUpperCase() : text;
    }
    case 'o':
      return value.k === 'int' ? BigInt.asUintN(64, value.v).toString(8) : '?';
    case 'c':
      return value.k === 'int' ? String.fromCharCode(Number(value.v)) : '?';
    case 's':
      return value.k === 'str' ? value.text : value.k === 'ptr' && value.addr === 0n ? '(null)' : showValue(value);
    case 'p':
      return value.k === 'ptr' ? (value.addr === 0n ? '(nil)' : `0x${value.addr.toString(16)}`) : showValue(value);
    default: {
      const number = value.k === 'float' ? value.v : value.k === 'int' ? Number(value.v) : Number.NaN;
      return number.toFixed(precision === undefined ? 6 : Number(precision));
    }
  }
}

/** printf's format applied to interpreter values; enough for logging lines, not a full libc. */
export function format(template: string, args: readonly Value[]): string {
  let next = 0;
  return template.replace(SPEC, (_, flags: string, width: string, precision: string | undefined, conversion: string) => {
    if (conversion === '%') return '%';
    const text = formatOne(args[next], conversion, precision);
    next += 1;
    const size = Number(width || 0);
    if (text.length >= size) return text;
    return flags.includes('-') ? text.padEnd(size) : text.padStart(size, flags.includes('0') ? '0' : ' ');
  });
}

/** `std::string(…)` and `std::to_string(…)`, for messages. */
function stringCall(name: string, values: readonly Value[]): Value | undefined {
  const [first] = values;
  if (name === 'string') return { k: 'string', type: { k: 'string' }, text: first?.k === 'str' || first?.k === 'string' ? first.text : '' };
  if (name !== 'to_string' || first === undefined) return undefined;
  const text = first.k === 'int' ? String(first.v) : first.k === 'float' ? first.v.toFixed(6) : showValue(first);
  return { k: 'string', type: { k: 'string' }, text };
}

/**
 * `memset(&prop, 0, sizeof(prop))` on the code's own object: the bytes it covers become 0, as
 * `= {}` would make them (so no member reads as never set). Other memsets are not modeled.
 */
function zeroObject(m: Machine, call: CallExpr, target: Extract<Value, { k: 'ref' }>, count: Value | undefined): Value {
  const first = target.target.cells[target.index];
  const element = first === undefined ? undefined : sizeOf(first.type);
  const bytes = count?.k === 'int' ? Number(count.v) : 0;
  const cells =
    element === undefined || element === 0 ? [] : target.target.cells.slice(target.index, target.index + Math.floor(bytes / element));
  for (const cell of cells) {
    cell.value = zeroValue(cell.type, true);
    markInit(cell);
  }
  if (cells.length === 0) m.marks.note(call.span, 'memset(…) covers less than one element of its target: not modeled');
  return target;
}

/** File I/O of the C library: PageLens runs no file system. */
const FILE_CALLS = new Set([
  'fopen',
  'fread',
  'fwrite',
  'fclose',
  'fseek',
  'ftell',
  'fgets',
  'fputs',
  'fflush',
  'open',
  'read',
  'write',
  'close',
]);

/** What fopen answers: a FILE* that is no memory of the process (the text "FILE"), only passed back to the other file calls. */
const FILE_HANDLE = 0x46494c45n;

/**
 * Answers as if the file opened and every read or write moved all it was asked to, so the code
 * stays on its main path, where the memory calls are; the contents are not read or written.
 */
function fileCall(m: Machine, call: CallExpr, name: string, values: readonly Value[]): Value {
  m.marks.note(
    call.span,
    `${name}(…) is file I/O, which is not modeled: PageLens runs no file system; it answers as if the file opened and every byte moved, without reading or writing any`,
  );
  if (name === 'fopen') return { k: 'ptr', type: { k: 'ptr', to: VOID_PTR.to, name: 'FILE*' }, addr: FILE_HANDLE };
  if (name === 'open') return intValue(INT, 3n);
  if (name === 'ftell')
    return unmodeledZero(LONG, { line: call.span.line, what: "ftell(…) reports the file's position or size", from: 'file' });
  const into = name === 'read' ? values[1] : name === 'fread' ? values[0] : undefined;
  if (into?.k === 'ref') fileBytesInto(call, name, into);
  const count = name === 'fread' || name === 'fwrite' || name === 'read' || name === 'write' ? values[2] : undefined;
  return count?.k === 'int' ? intValue(SIZE_T, count.v) : intValue(INT, 0n);
}

/**
 * `read(fd, &handle, sizeof(handle))`: what lands in a C integer is the file's bytes (in the CANN
 * runtime's two-process samples, what the other process wrote), so each integer it covers becomes
 * a number PageLens cannot know; an ACL call given one then stops with a message saying where it
 * came from instead of sending a made-up 0.
 */
function fileBytesInto(call: CallExpr, name: string, into: Extract<Value, { k: 'ref' }>): void {
  for (const cell of into.target.cells.slice(into.index)) {
    if (cell.type.k !== 'int') continue;
    cell.value = unmodeledZero(cell.type, {
      line: call.span.line,
      what: `${name}(…) fills ${into.target.label} with the file's bytes`,
      from: 'file',
    });
    cell.init = true;
  }
}

/**
 * `aclmdlQuerySize(path, &workSize, &weightSize)`, `aclmdlLoadFromFile(path, &modelId)`: what a
 * model call writes through `&integer` is the model's, so each such integer becomes a number
 * PageLens cannot know; an allocation it sizes then stops with a message instead of a made-up 0.
 */
function modelOutParameters(call: CallExpr, name: string, values: readonly Value[]): void {
  for (const value of values) {
    if (value.k !== 'ref') continue;
    const cell = value.target.cells[value.index];
    if (cell?.type.k !== 'int') continue;
    cell.value = unmodeledZero(cell.type, {
      line: call.span.line,
      what: `${name}(…) writes ${value.target.label}, the model's`,
      from: 'model',
    });
    cell.init = true;
  }
}

/** Model-execution calls whose answer is a size or count the loaded model decides. */
const MODEL_SIZES =
  /^aclmdlGet(?:Input|Output)SizeByIndex$|^aclmdlGetNum(?:Inputs|Outputs)$|^aclmdlGetDatasetNumBuffers$|^aclGetDataBufferSizeV2$/;

/** Where the opaque handles of model-execution calls start (the text "MDL"): no memory of the process or the device. */
const OPAQUE_HANDLES = 0x4d444c_0000n;

export async function callUnmodeled(m: Machine, call: CallExpr, scope: Scope): Promise<Value> {
  const values = await evaluateAll(m, call.args, scope);
  const name = call.callee;
  const text = stringCall(name, values);
  if (text !== undefined) return text;
  if (FILE_CALLS.has(name)) return fileCall(m, call, name, values);
  const library = callCLibrary(m, call, name, values);
  if (library !== undefined) return library;
  if (name === 'memset' && values[0]?.k === 'ref' && values[1]?.k === 'int' && values[1].v === 0n)
    return zeroObject(m, call, values[0], values[2]);
  const skip = PRINTERS[name];
  if (call.launch !== undefined) {
    m.marks.note(
      call.span,
      `the kernel launch ${name}<<<…>>> is not modeled: PageLens tracks memory, not kernels; its arguments were evaluated`,
    );
  } else if (skip !== undefined) {
    const [template, ...rest] = values.slice(skip);
    const text = template?.k === 'str' ? (name === 'puts' ? `${template.text}\n` : format(template.text, rest)) : '';
    m.output.push(text);
    m.marks.note(call.span, `${name} is not modeled; it would print ${JSON.stringify(text)}`);
  } else if (/^acl(?:mdl|op)[A-Z]|^acl(?:Create|Destroy|Get|Update)(?:DataBuffer|TensorDesc)/.test(name)) {
    // Model execution and operators: beyond memory, as kernel launches are.
    const handle = /^acl(?:mdl)?Create/.test(name);
    modelOutParameters(call, name, values);
    m.marks.note(
      call.span,
      `${name} is model execution (or an operator), which is not modeled: PageLens tracks memory, not models; its arguments were evaluated and it ${handle ? 'returned an opaque handle' : 'returned 0'}`,
    );
    if (handle) {
      m.opaqueHandles += 1;
      return { k: 'ptr', type: VOID_PTR, addr: OPAQUE_HANDLES + BigInt(m.opaqueHandles) * 0x10n };
    }
    // A model's sizes and counts are the model's: a buffer sized by one is not the program's to know.
    if (MODEL_SIZES.test(name))
      return unmodeledZero(SIZE_T, { line: call.span.line, what: `${name}(…) reports a size or count of the model`, from: 'model' });
  } else if (/^acl/.test(name)) {
    m.marks.warning(
      call.span,
      `${name} is not in PageLens's catalogue of ACL functions: not modeled (its arguments were evaluated; it returned 0)`,
    );
  } else {
    m.marks.note(call.span, `${name}(…) is not modeled: its arguments were evaluated and it returned 0`);
  }
  return intValue(INT, 0n);
}
