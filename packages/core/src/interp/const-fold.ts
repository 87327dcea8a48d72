import type { Expr } from './ast.ts';
import { sizeOf } from './c-type-model.ts';

/*
 * Integer constant expressions the parser needs before anything runs: array sizes such as
 * `float a[kRows * kCols]`, from literals, `sizeof(type)`, and the `const`/`constexpr` integers
 * declared earlier whose initialisers fold too (C++ [expr.const]).
 */

export function foldConstant(expr: Expr, constants: ReadonlyMap<string, bigint>): bigint | undefined {
  switch (expr.kind) {
    case 'int':
      return expr.value;
    case 'name':
      return constants.get(expr.name);
    case 'paren':
      return foldConstant(expr.inner, constants);
    case 'cast':
      return expr.type.k === 'int' ? foldConstant(expr.operand, constants) : undefined;
    case 'sizeofType': {
      const size = sizeOf(expr.type);
      return size === undefined ? undefined : BigInt(size);
    }
    case 'unary': {
      const v = foldConstant(expr.operand, constants);
      if (v === undefined) return undefined;
      return expr.op === '-' ? -v : expr.op === '+' ? v : expr.op === '~' ? ~v : v === 0n ? 1n : 0n;
    }
    case 'binary': {
      const a = foldConstant(expr.left, constants);
      const b = foldConstant(expr.right, constants);
      if (a === undefined || b === undefined) return undefined;
      return binary(expr.op, a, b);
    }
    case 'cond': {
      const test = foldConstant(expr.test, constants);
      if (test === undefined) return undefined;
      return foldConstant(test !== 0n ? expr.consequent : expr.alternate, constants);
    }
    default:
      return undefined;
  }
}

function binary(op: Extract<Expr, { kind: 'binary' }>['op'], a: bigint, b: bigint): bigint | undefined {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return b === 0n ? undefined : a / b;
    case '%':
      return b === 0n ? undefined : a % b;
    case '<<':
      return a << b;
    case '>>':
      return a >> b;
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    // Comparisons and logic give 0 or 1, as in C (static_assert conditions, `#if`-like constants).
    case '==':
      return a === b ? 1n : 0n;
    case '!=':
      return a !== b ? 1n : 0n;
    case '<':
      return a < b ? 1n : 0n;
    case '<=':
      return a <= b ? 1n : 0n;
    case '>':
      return a > b ? 1n : 0n;
    case '>=':
      return a >= b ? 1n : 0n;
    case '&&':
      return a !== 0n && b !== 0n ? 1n : 0n;
    case '||':
      return a !== 0n || b !== 0n ? 1n : 0n;
    default:
      return undefined;
  }
}
