import { type CType, type IntType, type PtrType, type SmartPtrType, typeName } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import { carryUnmodeled, copyValue, describeValue, floatValue, intValue, truthy, type Value, zeroValue } from './values.ts';

/**
 * C conversions (C11 6.3) between the interpreter's values: on assignment, initialisation,
 * argument passing and return (implicit), and for casts (explicit). Implicit conversions refuse
 * what a C compiler rejects (a struct where a number is expected, an integer other than 0 where
 * a pointer is expected) with a message that names both types.
 */
export function convert(value: Value, to: CType, span: Span, explicit: boolean, what = 'value'): Value {
  return carryUnmodeled(convertOf(value, to, span, explicit, what), value);
}

function convertOf(value: Value, to: CType, span: Span, explicit: boolean, what: string): Value {
  const refuse = (): never => {
    throw new InterpError('type', `${what}: cannot convert ${describeValue(value)} to ${typeName(to)}`, span);
  };
  switch (to.k) {
    case 'void':
      return { k: 'void' };
    case 'int':
      return toInt(value, to, explicit) ?? refuse();
    case 'float':
      if (value.k === 'int') return floatValue(to, Number(value.v));
      if (value.k === 'float') return floatValue(to, value.v);
      return refuse();
    case 'ptr':
      return toPointer(value, to, explicit) ?? refuse();
    case 'struct':
      if ((value.k === 'struct' || value.k === 'union') && value.type.name === to.name) return copyValue(value);
      return refuse();
    case 'array':
      throw new InterpError('type', `${what}: arrays cannot be assigned; assign their elements one by one`, span);
    case 'string':
      if (value.k === 'string') return value;
      if (value.k === 'str') return { k: 'string', type: to, text: value.text };
      return refuse();
    case 'optional':
      if (value.k === 'optional') return { ...value, item: { ...value.item, value: copyValue(value.item.value) } };
      if (value.k === 'ptr' && value.type.name === 'std::nullopt_t') return zeroValue(to, true);
      return { k: 'optional', type: to, has: true, item: { type: to.of, value: convert(value, to.of, span, explicit, what), init: true } };
    case 'smart':
      return toSmart(value, to, span, explicit, what) ?? refuse();
    case 'map':
      if (value.k === 'map')
        throw new InterpError(
          'unsupported',
          `${what}: copying a ${typeName(to)} (every element would be copied): not supported; pass it by reference (const T&)`,
          span,
        );
      return refuse();
    case 'vector':
      if (value.k === 'vector')
        throw new InterpError(
          'unsupported',
          `${what}: copying a std::vector (its elements would be copied to new heap memory): not supported; pass it by reference (const std::vector<T>&)`,
          span,
        );
      return refuse();
  }
}

/**
 * A smart pointer from another of its kind (the copies share the owner; smart-pointers.ts counts
 * them where they are stored), from nullptr, or, explicitly (`shared_ptr<T>(raw)`, make_shared),
 * from a raw pointer it then owns: C++ makes that constructor explicit.
 */
function toSmart(value: Value, to: SmartPtrType, span: Span, explicit: boolean, what: string): Value | undefined {
  if (value.k === 'smart') return value.type.kind === to.kind ? { ...value, type: to } : undefined;
  if (value.k === 'ptr' && value.addr === 0n) return zeroValue(to, true);
  if (value.k === 'int' && value.v === 0n) return zeroValue(to, true);
  if (!explicit || (value.k !== 'ptr' && value.k !== 'ref')) return undefined;
  const ptr = convert(value, { k: 'ptr', to: to.of }, span, true, what);
  return { k: 'smart', type: to, ptr, owner: { holders: 0, released: false } };
}

function toInt(value: Value, to: IntType, explicit: boolean): Value | undefined {
  switch (value.k) {
    case 'int':
      return intValue(to, value.v);
    case 'float':
      // C11 6.3.1.4: truncation toward zero.
      return Number.isFinite(value.v) ? intValue(to, BigInt(Math.trunc(value.v))) : undefined;
    case 'ptr':
      // Pointer to integer only with a cast (C11 6.3.2.3), and `if (p)` style truth tests elsewhere.
      return explicit || to.bool === true ? intValue(to, value.addr) : undefined;
    case 'ref':
    case 'str':
      return to.bool === true ? intValue(to, 1n) : undefined;
    // A smart pointer's `explicit operator bool`: whether it holds an object.
    case 'smart':
      return to.bool === true ? intValue(to, truthy(value.ptr) ? 1n : 0n) : undefined;
    default:
      return undefined;
  }
}

function toPointer(value: Value, to: PtrType, explicit: boolean): Value | undefined {
  switch (value.k) {
    case 'ptr':
      return { k: 'ptr', type: to, addr: value.addr };
    case 'ref':
      return { ...value, type: to };
    case 'str':
      return { ...value, type: to };
    case 'int':
      // Only the null pointer constant converts without a cast.
      if (!explicit && value.v !== 0n) return undefined;
      return { k: 'ptr', type: to, addr: BigInt.asUintN(64, value.v) };
    default:
      return undefined;
  }
}
