/**
 * The expression of `#if` and `#elif`: `defined X` and `defined(X)` first, then macros expanded,
 * then any identifier left is 0 (C11 6.10.1), evaluated on 64-bit integers with C's operators.
 */

type Tok = { readonly t: 'num'; readonly v: bigint } | { readonly t: 'op'; readonly v: string };

const OPS = [
  '<<',
  '>>',
  '<=',
  '>=',
  '==',
  '!=',
  '&&',
  '||',
  '(',
  ')',
  '!',
  '~',
  '*',
  '/',
  '%',
  '+',
  '-',
  '<',
  '>',
  '&',
  '^',
  '|',
  '?',
  ':',
];

function tokens(text: string): Tok[] | undefined {
  const out: Tok[] = [];
  for (let i = 0; i < text.length; ) {
    const c = text[i] ?? '';
    if (/\s/.test(c)) {
      i += 1;
      continue;
    }
    const number = /^(0[xX][0-9a-fA-F]+|\d+)[uUlL]*/.exec(text.slice(i));
    if (number?.[1] !== undefined) {
      const digits = number[1];
      out.push({ t: 'num', v: /^0\d/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits) });
      i += number[0].length;
      continue;
    }
    const char = /^'(\\?.)'/.exec(text.slice(i));
    if (char?.[1] !== undefined) {
      out.push({ t: 'num', v: BigInt(char[1].replace(/^\\/, '').charCodeAt(0)) });
      i += char[0].length;
      continue;
    }
    const name = /^[A-Za-z_]\w*/.exec(text.slice(i));
    if (name !== null) {
      out.push({ t: 'num', v: name[0] === 'true' ? 1n : 0n });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => text.startsWith(o, i));
    if (op === undefined) return undefined;
    out.push({ t: 'op', v: op });
    i += op.length;
  }
  return out;
}

const BINARY: Readonly<Record<string, number>> = {
  '||': 1,
  '&&': 2,
  '|': 3,
  '^': 4,
  '&': 5,
  '==': 6,
  '!=': 6,
  '<': 7,
  '>': 7,
  '<=': 7,
  '>=': 7,
  '<<': 8,
  '>>': 8,
  '+': 9,
  '-': 9,
  '*': 10,
  '/': 10,
  '%': 10,
};

function apply(op: string, a: bigint, b: bigint): bigint {
  const truth = (x: boolean) => (x ? 1n : 0n);
  switch (op) {
    case '||':
      return truth(a !== 0n || b !== 0n);
    case '&&':
      return truth(a !== 0n && b !== 0n);
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '&':
      return a & b;
    case '==':
      return truth(a === b);
    case '!=':
      return truth(a !== b);
    case '<':
      return truth(a < b);
    case '>':
      return truth(a > b);
    case '<=':
      return truth(a <= b);
    case '>=':
      return truth(a >= b);
    case '<<':
      return BigInt.asIntN(64, a << b);
    case '>>':
      return a >> b;
    case '+':
      return BigInt.asIntN(64, a + b);
    case '-':
      return BigInt.asIntN(64, a - b);
    case '*':
      return BigInt.asIntN(64, a * b);
    case '/':
      return b === 0n ? 0n : a / b;
    default:
      return b === 0n ? 0n : a % b;
  }
}

class Parser {
  #i = 0;
  readonly #toks: readonly Tok[];
  constructor(toks: readonly Tok[]) {
    this.#toks = toks;
  }
  get done(): boolean {
    return this.#i >= this.#toks.length;
  }
  #peek(): Tok | undefined {
    return this.#toks[this.#i];
  }
  #isOp(v: string): boolean {
    const t = this.#peek();
    return t?.t === 'op' && t.v === v;
  }
  expr(): bigint {
    const test = this.binary(1);
    if (!this.#isOp('?')) return test;
    this.#i += 1;
    const yes = this.expr();
    if (!this.#isOp(':')) throw new Error('"?" without ":"');
    this.#i += 1;
    const no = this.expr();
    return test !== 0n ? yes : no;
  }
  binary(min: number): bigint {
    let left = this.unary();
    for (;;) {
      const t = this.#peek();
      if (t?.t !== 'op') return left;
      const precedence = BINARY[t.v];
      if (precedence === undefined || precedence < min) return left;
      this.#i += 1;
      left = apply(t.v, left, this.binary(precedence + 1));
    }
  }
  unary(): bigint {
    const t = this.#peek();
    this.#i += 1;
    if (t === undefined) throw new Error('the expression ends too early');
    if (t.t === 'num') return t.v;
    switch (t.v) {
      case '(': {
        const inner = this.expr();
        if (!this.#isOp(')')) throw new Error('a "(" is not closed');
        this.#i += 1;
        return inner;
      }
      case '!':
        return this.unary() === 0n ? 1n : 0n;
      case '~':
        return ~this.unary();
      case '-':
        return -this.unary();
      case '+':
        return this.unary();
      default:
        throw new Error(`unexpected "${t.v}"`);
    }
  }
}

/** True when the condition holds; an expression PageLens cannot read is false, with `problem` set. */
export function evaluateCondition(
  text: string,
  macros: ReadonlyMap<string, unknown>,
  expand: (text: string) => string,
): { truth: boolean; problem?: string } {
  const known = text.replace(/\bdefined\s*(?:\(\s*([A-Za-z_]\w*)\s*\)|([A-Za-z_]\w*))/g, (_, a?: string, b?: string) =>
    macros.has(a ?? b ?? '') ? '1' : '0',
  );
  const expanded = expand(known.replace(/\b__has_include\s*\([^)]*\)/g, '0'));
  const toks = tokens(expanded);
  if (toks === undefined) return { truth: false, problem: `cannot read "${text}"` };
  try {
    const parser = new Parser(toks);
    const value = parser.expr();
    if (!parser.done) return { truth: false, problem: `cannot read "${text}"` };
    return { truth: value !== 0n };
  } catch (error) {
    return { truth: false, problem: `cannot read "${text}": ${error instanceof Error ? error.message : String(error)}` };
  }
}
