import { ACL_CONSTANTS } from '../acl/enums.ts';
import type { Expr } from './ast.ts';
import { type CType, DOUBLE, FLOAT, fieldsOf, INT, pointerTo, SIZE_T, sizeOf, typeName } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError, undeclaredMessage } from './exec-errors.ts';
import { mapSubscript } from './library-map.ts';
import { libraryName } from './library-names.ts';
import type { Machine, Scope } from './machine.ts';
import {
  type Cell,
  describeValue,
  markInit,
  type RefTarget,
  unionMember,
  unionMemberType,
  type Value,
  vectorItem,
  withUnionMember,
  zeroValue,
} from './values.ts';

/** Something that can be read, written, and (when `ref` is set) pointed to with `&`. */
export interface LValue {
  readonly type: CType;
  /** `prop.location.id`, `attrs[0]`: how messages name it. */
  readonly label: string;
  readonly isConst: boolean;
  /** Set when the storage is an interpreter cell (so reads can warn about indeterminate values). */
  readonly cell?: Cell;
  readonly ref?: { readonly target: RefTarget; readonly index: number };
  /** Set for an element of a std::vector: its address in the vector's heap memory (what `&v[i]` is). */
  readonly address?: bigint;
  read(): Value;
  /** `value` has already been converted to `type`. */
  write(value: Value): void;
}

export type Evaluate = (expr: Expr, scope: Scope) => Promise<Value>;

function cellLValue(m: Machine, cell: Cell, label: string, isConst: boolean, ref?: LValue['ref']): LValue {
  const target = ref ?? { target: m.targetOf(cell, () => ({ cells: [cell], label, isArray: false })), index: 0 };
  return {
    type: cell.type,
    label,
    isConst,
    cell,
    ref: target,
    read: () => cell.value,
    write: (value) => {
      cell.value = value;
      markInit(cell);
    },
  };
}

/** What `*p` designates: a variable when p came from `&`, otherwise memory PageLens does not model. */
export function pointee(m: Machine, pointer: Value, span: Span, what: string): LValue {
  // `*p`, `p->member` of a std::shared_ptr / std::unique_ptr: its object.
  if (pointer.k === 'smart') return pointee(m, pointer.ptr, span, what);
  if (pointer.k === 'optional') {
    // `*stream_`, `handle->size`: the optional's T (an empty one is undefined behaviour, so the run stops).
    if (!pointer.has) throw new InterpError('runtime', `${what} reads an empty std::optional (undefined behaviour)`, span);
    return cellLValue(m, pointer.item, what, false);
  }
  if (pointer.k === 'ref') {
    const { target, index } = pointer;
    const cell = target.cells[index];
    if (cell === undefined) {
      const bounds = target.isArray ? `${target.label}[0..${target.cells.length - 1}]` : `the single object ${target.label}`;
      throw new InterpError('runtime', `${what} reaches element ${index}, outside ${bounds} (undefined behaviour in C)`, span);
    }
    const label = target.isArray ? `${target.label}[${index}]` : `*&${target.label}`;
    return cellLValue(m, cell, target.isArray ? label : target.label, false, { target, index });
  }
  const object = pointer.k === 'ptr' ? m.heapObjects.get(pointer.addr) : undefined;
  if (object !== undefined)
    return cellLValue(m, object, `*(${typeName(object.type)}*)0x${pointer.k === 'ptr' ? pointer.addr.toString(16) : ''}`, false);
  if (pointer.k === 'ptr' || pointer.k === 'str') {
    if (pointer.k === 'ptr' && pointer.addr === 0n)
      throw new InterpError('runtime', `${what} dereferences a NULL pointer (undefined behaviour in C)`, span);
    const type = pointer.type.to;
    if (type.k === 'void') throw new InterpError('type', `${what} dereferences a void* pointer: cast it to a typed pointer first`, span);
    const where = pointer.k === 'ptr' ? `0x${pointer.addr.toString(16)}` : 'a string';
    return {
      type,
      label: `*(${where})`,
      isConst: false,
      read: () => {
        m.marks.note(
          span,
          `reading ${typeName(type)} at ${where} is not modeled: PageLens tracks allocations, not their contents; it reads as 0`,
        );
        const zero = zeroValue(type, true);
        return zero.k === 'int' ? { ...zero, unmodeled: { line: span.line, what: `the ${typeName(type)} at ${where}` } } : zero;
      },
      write: () =>
        m.marks.note(span, `writing ${typeName(type)} at ${where} is not modeled: PageLens tracks allocations, not their contents`),
    };
  }
  throw new InterpError('type', `${what}: ${describeValue(pointer)} is not a pointer`, span);
}

function member(m: Machine, base: LValue, name: string, span: Span): LValue {
  const value = base.read();
  if (value.k === 'union' && base.cell !== undefined) {
    const unionCell = base.cell;
    const type = unionMemberType(name);
    if (type === undefined)
      throw new InterpError('unsupported', `${base.label}.${name}: PageLens models the members moduleId, deviceId and vaFlag`, span);
    return {
      type,
      label: `${base.label}.${name}`,
      isConst: base.isConst,
      read: () => (unionCell.value.k === 'union' ? (unionMember(unionCell.value, name) ?? value) : value),
      write: (v) => {
        if (unionCell.value.k === 'union' && v.k === 'int') unionCell.value = withUnionMember(unionCell.value, name, v.v);
        unionCell.init = true;
      },
    };
  }
  // `binFile.end`, `file.binary`: a stream's seek direction or open mode, named through the object.
  const flag = value.k === 'ptr' && value.type.name?.startsWith('std::') === true ? libraryName(`ios::${name}`, undefined) : undefined;
  if (flag !== undefined) return { type: INT, label: `${base.label}.${name}`, isConst: true, read: () => flag, write: () => undefined };
  if (value.k !== 'struct')
    throw new InterpError('type', `${base.label} is ${describeValue(value)}, not a struct: it has no field "${name}"`, span);
  const cell = value.fields.get(name);
  if (cell === undefined) {
    const names = fieldsOf(value.type).map((f) => f.name);
    throw new InterpError('type', `${value.type.name} has no field "${name}"; its fields are ${names.join(', ')}`, span);
  }
  return cellLValue(m, cell, `${base.label}.${name}`, base.isConst);
}

export async function resolveLValue(m: Machine, expr: Expr, scope: Scope, evaluate: Evaluate): Promise<LValue> {
  switch (expr.kind) {
    case 'name': {
      const binding = scope.lookup(expr.name);
      if (binding !== undefined) return cellLValue(m, binding.cell, expr.name, binding.isConst);
      if (ACL_CONSTANTS.has(expr.name))
        throw new InterpError('type', `${expr.name} is an ACL constant; it cannot be assigned or pointed to`, expr.span);
      throw new InterpError('undeclared', undeclaredMessage(expr.name), expr.span, expr.name);
    }
    case 'paren':
      return resolveLValue(m, expr.inner, scope, evaluate);
    case 'deref':
      return pointee(m, await evaluate(expr.operand, scope), expr.span, `*${label(expr.operand)}`);
    case 'index': {
      const base = await evaluate(expr.target, scope);
      const index = await evaluate(expr.index, scope);
      if (base.k === 'map')
        return cellLValue(m, mapSubscript(base, index, expr.span), `${label(expr.target)}[${label(expr.index)}]`, false);
      if (index.k !== 'int')
        throw new InterpError('type', `the index of ${label(expr.target)} must be an integer, not ${describeValue(index)}`, expr.span);
      const at = Number(index.v);
      if (base.k === 'vector') {
        // operator[] does not check; PageLens does, as reaching past the elements is undefined behaviour.
        if (index.v < 0n || at >= base.size)
          throw new InterpError(
            'runtime',
            `${label(expr.target)}[${at}] is outside its ${base.size} elements (undefined behaviour in C++)`,
            expr.span,
          );
        const cell = vectorItem(base, at);
        const address = base.addr + index.v * BigInt(sizeOf(base.type.of) ?? 1);
        return { ...cellLValue(m, cell, `${label(expr.target)}[${at}]`, false), address };
      }
      const moved: Value =
        base.k === 'ref'
          ? { ...base, index: base.index + at }
          : base.k === 'ptr'
            ? { ...base, addr: base.addr + index.v * BigInt(sizeOf(base.type.to) ?? 1) }
            : base;
      return pointee(m, moved, expr.span, `${label(expr.target)}[${at}]`);
    }
    case 'field': {
      const base = expr.arrow
        ? pointee(m, await evaluate(expr.target, scope), expr.span, `${label(expr.target)}->${expr.name}`)
        : await resolveLValue(m, expr.target, scope, evaluate);
      return member(m, base, expr.name, expr.span);
    }
    default: {
      // A call's result is a value, also when the function returns a reference (PageLens reads that as the object's value).
      const call = expr.kind === 'call' || expr.kind === 'method';
      throw new InterpError(
        'type',
        `"${label(expr)}" cannot be assigned or pointed to${call ? ': a call gives a value; writing through a reference a function returns is not supported' : ''}`,
        expr.span,
      );
    }
  }
}

/** Short source-like text for messages. */
export function label(expr: Expr): string {
  switch (expr.kind) {
    case 'name':
      return expr.name;
    case 'paren':
      return `(${label(expr.inner)})`;
    case 'deref':
      return `*${label(expr.operand)}`;
    case 'addr':
      return `&${label(expr.operand)}`;
    case 'index':
      return `${label(expr.target)}[${label(expr.index)}]`;
    case 'field':
      return `${label(expr.target)}${expr.arrow ? '->' : '.'}${expr.name}`;
    case 'int':
      return expr.text;
    case 'null':
      return expr.text;
    case 'call':
      return `${expr.callee}(…)`;
    default:
      return 'expression';
  }
}

/** The type of an expression without running it, as `sizeof` needs (C does not evaluate its operand). */
export function staticType(expr: Expr, scope: Scope): CType | undefined {
  switch (expr.kind) {
    case 'name':
      return scope.lookup(expr.name)?.cell.type ?? (ACL_CONSTANTS.has(expr.name) ? INT : undefined);
    case 'paren':
      return staticType(expr.inner, scope);
    case 'int':
      return expr.type;
    case 'float':
      return expr.single ? FLOAT : DOUBLE;
    case 'string':
      return { k: 'array', of: { k: 'int', name: 'char', bits: 8, signed: true }, length: expr.value.length + 1 };
    case 'cast':
      return expr.type;
    case 'sizeofExpr':
    case 'sizeofName':
    case 'sizeofType':
      return SIZE_T;
    case 'addr': {
      const inner = staticType(expr.operand, scope);
      return inner === undefined ? undefined : pointerTo(inner);
    }
    case 'deref':
    case 'index': {
      const inner = staticType(expr.kind === 'deref' ? expr.operand : expr.target, scope);
      return inner?.k === 'ptr' ? inner.to : inner?.k === 'array' || inner?.k === 'vector' ? inner.of : undefined;
    }
    case 'field': {
      let inner = staticType(expr.target, scope);
      if (expr.arrow && inner?.k === 'ptr') inner = inner.to;
      if (inner?.k !== 'struct') return undefined;
      if (inner.union) return unionMemberType(expr.name);
      return fieldsOf(inner).find((f) => f.name === expr.name)?.type;
    }
    default:
      return undefined;
  }
}
