import { type ArgCheck, checkArgs } from '../acl/check-args.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_REPEAT_INITIALIZE, ACL_SUCCESS, errorName } from '../acl/errors.ts';
import { ACL_FUNCTIONS, type AclFunctionName } from '../acl/functions.ts';
import type { AclArgs, AclResult, AclRuntime } from '../acl/runtime.ts';
import { isHex, parseHex } from '../units/hex.ts';
import { type ArgContext, argName, outTargetProblem, toAclArg, writeOut, writeText } from './acl-values.ts';
import type { CallExpr } from './ast.ts';
import { baseType, CHAR_PTR, INT, VOID_PTR } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { evaluate } from './eval.ts';
import { InterpError } from './exec-errors.ts';
import { hostAddress } from './host-memory.ts';
import { label } from './lvalue.ts';
import type { Machine, Scope } from './machine.ts';
import { type Cell, intValue, isNullPointer, type UnmodeledRead, type Value } from './values.ts';

const ACL_ERROR = baseType(['aclError']);
/** An aclError code as the value of the call expression. */
const aclErrorValue = (code: number): Value => intValue(ACL_ERROR?.k === 'int' ? ACL_ERROR : INT, BigInt(code));

/** The runtime's answer, with its out-fields as plain entries. */
interface Answer {
  readonly ret: number;
  readonly message: string | undefined;
  readonly fields: ReadonlyMap<string, unknown>;
}

/**
 * Narrows a built argument object to the function's argument type. checkArgs has already proved
 * the shape against the catalogue, which is what AclArgs is derived from.
 */
function isArgsOf<F extends AclFunctionName>(fn: F, args: object, check: ArgCheck): args is AclArgs<F> {
  return check.ok && fn in ACL_FUNCTIONS && args !== null;
}

async function invoke<F extends AclFunctionName>(runtime: AclRuntime, fn: F, args: object, call: CallExpr): Promise<Answer> {
  const check = checkArgs(fn, args);
  if (!isArgsOf(fn, args, check)) {
    throw new InterpError('type', `${fn}: ${check.ok ? 'arguments do not match the catalogue' : check.message}`, call.span);
  }
  let result: AclResult<F>;
  try {
    result = await runtime.call(fn, args);
  } catch (thrown) {
    // A backend over the wire can fail outside ACL's codes (a dropped connection): stop on the call's line.
    const reason = thrown instanceof Error ? thrown.message : String(thrown);
    throw new InterpError('internal', `${fn}: the runtime failed: ${reason}`, call.span);
  }
  const fields = new Map<string, unknown>(Object.entries(result));
  return { ret: result.ret, message: result.message, fields };
}

/** The C arguments of `fn`: its parameters minus an out-field that is really the return value (malloc, aclrtGetSocName). */
function cParameters(fn: AclFunctionName) {
  const spec = ACL_FUNCTIONS[fn];
  const returnsOut = spec.returns === 'const char*' || spec.returns === 'void*';
  return { spec, params: spec.params.filter((p) => !(returnsOut && p.dir === 'out')), returnsOut };
}

export function catalogueArity(fn: AclFunctionName): { count: number; names: readonly string[] } {
  const { params } = cParameters(fn);
  return { count: params.length, names: params.map((p) => p.name) };
}

/**
 * One call of a catalogue function through the `AclRuntime`: C arguments map to the catalogue's
 * parameters by position, `&var` out-arguments receive the result's field of the same name, and
 * the return code is recorded on the call's line.
 */
/**
 * An argument that comes from memory contents PageLens does not model (a size read out of a file's
 * bytes) would send the runtime a made-up 0: the run stops here with a message saying so, rather
 * than charge the code with the error that 0 causes.
 */
function unmodeledArgument(fn: string, position: number, text: string, from: UnmodeledRead, span: Span): never {
  const origin =
    from.from === 'file'
      ? `a file PageLens does not read (line ${from.line}: ${from.what}; PageLens runs no file system and answered 0)`
      : from.from === 'model'
        ? `a model PageLens does not load (line ${from.line}: ${from.what}; PageLens runs no model and answered 0)`
        : `memory contents PageLens does not model (line ${from.line} reads ${from.what}, which holds what the program put there, such as a file's bytes; PageLens read 0)`;
  throw new InterpError(
    'unsupported',
    `argument ${position} of ${fn} ("${text}") comes from ${origin}: the playground cannot know this value, so it stops rather than pass a made-up one. Set it in the code, or build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
    span,
  );
}

export async function callCatalogue(m: Machine, fn: AclFunctionName, call: CallExpr, scope: Scope): Promise<Value> {
  const { spec, params, returnsOut } = cParameters(fn);
  if (call.args.length !== params.length) {
    const names = params.map((p) => p.name).join(', ');
    throw new InterpError('type', `${fn} takes ${params.length} argument(s) (${names || 'none'}), not ${call.args.length}`, call.span);
  }
  const args: Record<string, unknown> = {};
  const outs: { name: string; cell: Cell | undefined; text?: readonly Cell[]; items?: readonly Cell[] }[] = [];
  const uninitialized: string[] = [];
  let nullOut: string | undefined;
  for (const [index, param] of params.entries()) {
    const expr = call.args[index];
    if (expr === undefined) continue;
    const evaluated = await evaluate(m, expr, scope);
    if (evaluated.k === 'int' && evaluated.unmodeled !== undefined)
      unmodeledArgument(fn, index + 1, label(expr), evaluated.unmodeled, expr.span);
    // A key or a pid list the code read from a file (what another process wrote there) is not known either.
    // A host buffer's contents (`aclrtMemcpy(dev, n, &num, n, …)`) are not modeled anyway and stay free to pass.
    const readsValues = param.value.t === 'string' || param.value.t === 'list';
    const pointee = param.dir === 'in' && readsValues && evaluated.k === 'ref' ? evaluated.target.cells[evaluated.index]?.value : undefined;
    if (pointee?.k === 'int' && pointee.unmodeled !== undefined)
      unmodeledArgument(fn, index + 1, label(expr), pointee.unmodeled, expr.span);
    // A C object given as memory (`&num`, `float a[8]`) is host memory of the process (HM-1).
    const value =
      param.dir === 'in' && param.value.t === 'ptr' && evaluated.k === 'ref' ? await hostAddress(m, evaluated, expr.span) : evaluated;
    const a: ArgContext = { fn, position: index + 1, param, text: label(expr), span: expr.span, uninitialized };
    if (param.dir === 'in') {
      args[param.name] = toAclArg(a, value);
      continue;
    }
    if (isNullPointer(value)) nullOut ??= param.name;
    else if (value.k === 'ref') {
      const cell = value.target.cells[value.index];
      if (cell === undefined) throw new InterpError('runtime', `${argName(a)}: "${a.text}" points outside its array`, expr.span);
      const problem = outTargetProblem(a, cell);
      if (problem !== undefined) throw new InterpError('type', problem, expr.span);
      // A char* the runtime writes text into takes the cells from here on (a char array).
      // A char* the runtime writes text into, or an array of structs it fills (aclrtGetMemUsageInfo), takes the cells from here on.
      if (param.value.t === 'charBuffer') outs.push({ name: param.name, cell, text: value.target.cells.slice(value.index) });
      else if (param.value.t === 'structArray') outs.push({ name: param.name, cell, items: value.target.cells.slice(value.index) });
      else outs.push({ name: param.name, cell });
    } else if (value.k === 'ptr') {
      m.marks.note(call.span, `${argName(a)} points to memory at 0x${value.addr.toString(16)}: the result written there is not modeled`);
      outs.push({ name: param.name, cell: undefined });
    } else {
      throw new InterpError('type', `${argName(a)}: expected a pointer such as &${param.name}, got "${a.text}"`, expr.span);
    }
  }
  if (uninitialized.length > 0) {
    m.marks.warning(
      call.span,
      `${uninitialized.join(', ')} ${uninitialized.length === 1 ? 'is' : 'are'} never set (indeterminate in C); PageLens passes 0: initialise the struct with = {}`,
    );
  }
  if (nullOut !== undefined) {
    // DM-2: a NULL out-pointer is refused before anything happens.
    const message = `${nullOut} is NULL: ${fn} has nowhere to write its result and returns ACL_ERROR_INVALID_PARAM (DM-2); PageLens did not call the runtime`;
    m.marks.call(call.span, { fn, ret: ACL_ERROR_INVALID_PARAM, retName: errorName(ACL_ERROR_INVALID_PARAM), message });
    m.marks.note(call.span, message);
    return aclErrorValue(ACL_ERROR_INVALID_PARAM);
  }
  const answer = await invoke(m.runtime, fn, args, call);
  for (const out of outs) {
    if (out.cell === undefined || !answer.fields.has(out.name)) continue;
    const value = answer.fields.get(out.name);
    if (out.text !== undefined) {
      if (typeof value === 'string') writeText(out.text, value);
    } else if (out.items !== undefined) {
      if (Array.isArray(value))
        for (const [index, item] of value.entries()) if (out.items[index] !== undefined) writeOut(out.items[index], item);
    } else writeOut(out.cell, value);
  }
  const benign = fn === 'aclInit' ? initAnswer(m, answer.ret) : undefined;
  const record = { fn, ret: answer.ret, retName: errorName(answer.ret), ...(benign === undefined ? {} : { benign }) };
  m.marks.call(call.span, answer.message === undefined ? record : { ...record, message: answer.message });
  if (returnsOut) {
    const out = spec.params.find((p) => p.dir === 'out');
    const value = out === undefined ? undefined : answer.fields.get(out.name);
    if (spec.returns === 'const char*')
      return typeof value === 'string' ? { k: 'str', type: CHAR_PTR, text: value } : { k: 'ptr', type: CHAR_PTR, addr: 0n };
    const parsed = typeof value === 'string' && isHex(value) ? parseHex(value) : undefined;
    return { k: 'ptr', type: VOID_PTR, addr: parsed?.ok === true ? BigInt(parsed.value) : 0n };
  }
  if (spec.returns === 'void') return { k: 'void' };
  return aclErrorValue(benign === undefined ? answer.ret : ACL_SUCCESS);
}

/**
 * LT-1 on a shared host: the playground's process outlives a run, so the first aclInit of a run
 * (the setup's or the code's) can find it initialised by an earlier run and answer 100002. A fresh
 * process would answer ACL_SUCCESS: the call is logged as it was answered, explained by a note, and
 * the code sees ACL_SUCCESS. A second aclInit of the same run stays the error it is.
 */
function initAnswer(m: Machine, ret: number): string | undefined {
  const repeatFromEarlierRun = ret === ACL_ERROR_REPEAT_INITIALIZE && !m.initialized;
  if (ret === ACL_SUCCESS || repeatFromEarlierRun) m.initialized = true;
  if (!repeatFromEarlierRun) return undefined;
  return "this host's process was already initialised by an earlier run, so aclInit answered ACL_ERROR_REPEAT_INITIALIZE (100002); a fresh process answers ACL_SUCCESS, so the code sees ACL_SUCCESS and no error is counted (LT-1)";
}
