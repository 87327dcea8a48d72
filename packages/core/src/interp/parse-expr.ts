import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/cpp';
import type { AssignOp, BinaryOp, CastStyle, Expr, UnaryOp } from './ast.ts';
import { baseType, type CType, INT } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { LIBRARY_NAMES } from './library-names.ts';
import { OUT_OF_SCOPE_CALLS, smartMaker } from './library-types.ts';
import { kids, type ParseContext } from './parse-context.ts';
import { decodeString, numberLiteral, stringValue } from './parse-literal.ts';
import { baseOf, isTypeNode, typeDescriptor } from './parse-types.ts';

/*
 * @lezer/cpp groups some C operators differently from C, because it must also read templates:
 * `a < b && c > d` comes out as `((a < b) && c) > d`, `y = a > b` as `(y = a) > b`, and prefix
 * operators take a whole binary expression (`(T)a + b` as `(T)(a + b)`, `*p = 5` as `*(p = 5)`).
 * The tree still lists operands and operators in source order, so each run of operators outside
 * parentheses is flattened to that order and rebuilt by precedence climbing with C's table.
 */

type Token =
  | { readonly t: 'atom'; readonly expr: Expr }
  | { readonly t: 'prefix'; readonly span: Span; readonly make: (operand: Expr, span: Span) => Expr }
  | { readonly t: 'binary'; readonly op: BinaryOp }
  | { readonly t: 'assign'; readonly op: AssignOp }
  | { readonly t: 'question' | 'colon' | 'comma' };

/** C precedence, higher binds tighter: comma 1, assignment 2, conditional 3, then these. */
const PRECEDENCE: Readonly<Record<BinaryOp, number>> = {
  '||': 4,
  '&&': 5,
  '|': 6,
  '^': 7,
  '&': 8,
  '==': 9,
  '!=': 9,
  '<': 10,
  '<=': 10,
  '>': 10,
  '>=': 10,
  '<<': 11,
  '>>': 11,
  '+': 12,
  '-': 12,
  '*': 13,
  '/': 13,
  '%': 13,
};
const ASSIGN_OPS = new Set<string>(['=', '*=', '/=', '%=', '+=', '-=', '<<=', '>>=', '&=', '^=', '|=']);
const CASTS = new Set<string>(['static_cast', 'reinterpret_cast', 'const_cast']);

const isBinaryOp = (op: string): op is BinaryOp => Object.hasOwn(PRECEDENCE, op);
const isAssignOp = (op: string): op is AssignOp => ASSIGN_OPS.has(op);
const isUnaryOp = (op: string): op is UnaryOp => op === '-' || op === '+' || op === '!' || op === '~';

export function join(a: Span, b: Span): Span {
  return { from: a.from, to: b.to, line: a.line, column: a.column, endLine: b.endLine };
}

export function convertExpr(ctx: ParseContext, node: SyntaxNode): Expr {
  const tokens: Token[] = [];
  flatten(ctx, node, tokens);
  return new Climber(ctx, node, tokens).parse();
}

function operatorBetween(ctx: ParseContext, left: SyntaxNode, right: SyntaxNode): string {
  return ctx.text.slice(left.to, right.from).trim();
}

function flatten(ctx: ParseContext, node: SyntaxNode, out: Token[]): void {
  const parts = kids(node);
  const [first, second, third] = parts;
  const prefix = (make: (operand: Expr, span: Span) => Expr, operand: SyntaxNode | undefined): void => {
    if (operand === undefined) ctx.fail(node, 'syntax', `"${ctx.slice(node)}" lacks an operand`);
    out.push({ t: 'prefix', span: ctx.span(node), make });
    flatten(ctx, operand, out);
  };
  switch (node.name) {
    case 'BinaryExpression':
    case 'AssignmentExpression':
    case 'CommaExpression': {
      if (first === undefined || second === undefined) ctx.fail(node, 'syntax', `"${ctx.slice(node)}" is incomplete`);
      const right = parts.length === 3 && third !== undefined ? third : second;
      const op = operatorBetween(ctx, first, right);
      flatten(ctx, first, out);
      if (node.name === 'CommaExpression') out.push({ t: 'comma' });
      else if (isAssignOp(op)) out.push({ t: 'assign', op });
      else if (isBinaryOp(op)) out.push({ t: 'binary', op });
      else ctx.unsupported(node, `The operator "${op}"`);
      flatten(ctx, right, out);
      return;
    }
    case 'ConditionalExpression':
      if (first === undefined || second === undefined || third === undefined) ctx.fail(node, 'syntax', 'incomplete "?:" expression');
      flatten(ctx, first, out);
      out.push({ t: 'question' });
      flatten(ctx, second, out);
      out.push({ t: 'colon' });
      flatten(ctx, third, out);
      return;
    case 'UnaryExpression': {
      const op = first === undefined ? '' : ctx.slice(first);
      if (!isUnaryOp(op)) ctx.unsupported(node, `The unary operator "${op}"`);
      prefix((operand, span) => ({ kind: 'unary', op, operand, span }), second);
      return;
    }
    case 'PointerExpression': {
      const deref = ctx.text[node.from] === '*';
      prefix((operand, span) => (deref ? { kind: 'deref', operand, span } : { kind: 'addr', operand, span }), first);
      return;
    }
    case 'UpdateExpression':
      if (first?.name === 'UpdateOp') {
        const op = ctx.slice(first) === '++' ? '++' : '--';
        prefix((operand, span) => ({ kind: 'update', op, prefix: true, operand, span }), second);
        return;
      }
      break;
    case 'CastExpression': {
      if (first === undefined) ctx.fail(node, 'syntax', 'incomplete cast');
      const type = typeDescriptor(ctx, first);
      prefix((operand, span) => castTo(type, 'c', operand, span), second);
      return;
    }
    case 'SizeofExpression':
      // `sizeof x + 1` (no parentheses) is a prefix operator; `sizeof(…)` is read whole by sizeofAtom.
      if (first !== undefined && first.name !== 'TypeDescriptor' && ctx.slice(node).slice(6).trimStart()[0] !== '(') {
        prefix((operand, span) => ({ kind: 'sizeofExpr', operand, span }), first);
        return;
      }
      break;
  }
  out.push({ t: 'atom', expr: convertAtom(ctx, node) });
}

function castTo(type: CType, style: CastStyle, operand: Expr, span: Span): Expr {
  return { kind: 'cast', type, style, operand, span };
}

class Climber {
  #i = 0;
  readonly #ctx: ParseContext;
  readonly #node: SyntaxNode;
  readonly #tokens: readonly Token[];

  constructor(ctx: ParseContext, node: SyntaxNode, tokens: readonly Token[]) {
    this.#ctx = ctx;
    this.#node = node;
    this.#tokens = tokens;
  }

  parse(): Expr {
    const expr = this.#expr(1);
    if (this.#i < this.#tokens.length)
      this.#ctx.fail(this.#node, 'syntax', `cannot read "${this.#ctx.slice(this.#node)}" as an expression`);
    return expr;
  }

  #expr(min: number): Expr {
    let left = this.#unary();
    for (;;) {
      const token = this.#tokens[this.#i];
      if (token === undefined) return left;
      if (token.t === 'binary') {
        const precedence = PRECEDENCE[token.op];
        if (precedence < min) return left;
        this.#i += 1;
        const right = this.#expr(precedence + 1);
        left = { kind: 'binary', op: token.op, left, right, span: join(left.span, right.span) };
      } else if (token.t === 'assign') {
        if (min > 2) return left;
        this.#i += 1;
        const value = this.#expr(2);
        left = { kind: 'assign', op: token.op, target: left, value, span: join(left.span, value.span) };
      } else if (token.t === 'question') {
        if (min > 3) return left;
        this.#i += 1;
        const consequent = this.#expr(1);
        if (this.#tokens[this.#i]?.t !== 'colon') return this.#ctx.fail(this.#node, 'syntax', '"?" without its ":"');
        this.#i += 1;
        const alternate = this.#expr(2);
        left = { kind: 'cond', test: left, consequent, alternate, span: join(left.span, alternate.span) };
      } else if (token.t === 'comma') {
        if (min > 1) return left;
        this.#i += 1;
        const right = this.#expr(2);
        left = { kind: 'comma', left, right, span: join(left.span, right.span) };
      } else return left;
    }
  }

  #unary(): Expr {
    const token = this.#tokens[this.#i];
    this.#i += 1;
    if (token?.t === 'prefix') {
      const operand = this.#unary();
      return token.make(operand, join(token.span, operand.span));
    }
    if (token?.t === 'atom') return token.expr;
    return this.#ctx.fail(this.#node, 'syntax', `an operand is missing in "${this.#ctx.slice(this.#node)}"`);
  }
}

function convertAtom(ctx: ParseContext, node: SyntaxNode): Expr {
  const span = ctx.span(node);
  const parts = kids(node);
  const [first, second] = parts;
  switch (node.name) {
    case 'Identifier':
      return { kind: 'name', name: ctx.slice(node), span };
    case 'nullptr':
    case 'NULL':
      return { kind: 'null', text: ctx.slice(node), span };
    case 'True':
    case 'False':
      return { kind: 'int', value: node.name === 'True' ? 1n : 0n, type: INT, text: ctx.slice(node), span };
    case 'Number':
      return numberLiteral(ctx, node, span);
    case 'CharLiteral': {
      const value = decodeString(ctx.slice(node).replace(/^[uUL8]*'|'$/g, ''));
      return { kind: 'int', value: BigInt(value.codePointAt(0) ?? 0), type: INT, text: ctx.slice(node), span };
    }
    case 'String':
    case 'ConcatenatedString':
    case 'RawString':
      return { kind: 'string', value: stringValue(ctx, node), span };
    case 'ParenthesizedExpression':
      if (first === undefined) return ctx.fail(node, 'syntax', 'empty parentheses');
      return { kind: 'paren', inner: convertExpr(ctx, first), span };
    case 'UpdateExpression':
      if (first === undefined || second === undefined) return ctx.fail(node, 'syntax', 'incomplete ++/--');
      return { kind: 'update', op: ctx.slice(second) === '++' ? '++' : '--', prefix: false, operand: convertExpr(ctx, first), span };
    case 'SizeofExpression':
      return sizeofAtom(ctx, node, span);
    case 'CallExpression':
      return callAtom(ctx, node, span);
    case 'SubscriptExpression':
      if (first === undefined || second === undefined) return ctx.fail(node, 'syntax', 'incomplete subscript');
      return { kind: 'index', target: convertExpr(ctx, first), index: convertExpr(ctx, second), span };
    case 'FieldExpression': {
      if (first === undefined || second === undefined) return ctx.fail(node, 'syntax', 'incomplete member access');
      const arrow = operatorBetween(ctx, first, second) === '->';
      return { kind: 'field', target: convertExpr(ctx, first), name: ctx.slice(second), arrow, span };
    }
    case 'InitializerList':
      return { kind: 'initList', items: parts.map((item) => convertExpr(ctx, item)), span };
    case 'LambdaExpression':
      return ctx.outOfScope(node, 'A lambda');
    case 'NewExpression':
      return newAtom(ctx, node, span);
    case 'DeleteExpression': {
      const operand = parts.find((p) => p.name !== 'delete');
      if (operand === undefined) return ctx.fail(node, 'syntax', 'delete of nothing');
      const array = ctx.text.slice(node.from, operand.from).includes('[');
      return { kind: 'delete', operand: convertExpr(ctx, operand), array, span };
    }
    case 'ScopedIdentifier':
      return { kind: 'name', name: scopedName(ctx, node), span };
    case 'this':
      // Bound, inside a member function, to a pointer to the object it runs on (calls.ts).
      return { kind: 'name', name: 'this', span };
    default:
      return ctx.unsupported(node, `The expression "${ctx.slice(node)}"`);
  }
}

/**
 * `ns::name` as a name: the library's streams keep their `std::` (std::cout, std::endl), anything
 * else is its last part (variables of a namespace are globals with their plain names).
 */
function scopedName(ctx: ParseContext, node: SyntaxNode): string {
  const text = ctx.slice(node).replace(/\s+/g, '').replace(/^::/, '');
  if (/^std::(?:cout|cerr|endl|clog)$/.test(text)) return text;
  // A stream's open mode or seek direction (`ifstream::binary`, `std::ios::end`): a library name as written.
  if (LIBRARY_NAMES.has(text)) return text;
  return text.split('::').at(-1) ?? text;
}

/** `new T`, `new T(v)`, `new T[n]`. */
function newAtom(ctx: ParseContext, node: SyntaxNode, span: Span): Expr {
  const parts = kids(node).filter((p) => p.name !== 'new');
  const typeNode = parts.find(isTypeNode);
  if (typeNode === undefined) return ctx.unsupported(node, `The new-expression "${ctx.slice(node)}"`);
  const type = baseOf(ctx, typeNode);
  const declarator = parts.find((p) => p.name === 'NewDeclarator');
  const size = declarator === undefined ? undefined : kids(declarator)[0];
  if (declarator !== undefined && size === undefined) return ctx.fail(declarator, 'syntax', 'new T[] needs a size');
  if (size !== undefined) return { kind: 'new', type, count: convertExpr(ctx, size), span };
  const list = parts.find((p) => p.name === 'ArgumentList' || p.name === 'InitializerList');
  return list === undefined
    ? { kind: 'new', type, span }
    : { kind: 'new', type, args: kids(list).map((arg) => convertExpr(ctx, arg)), span };
}

function sizeofAtom(ctx: ParseContext, node: SyntaxNode, span: Span): Expr {
  const [first] = kids(node);
  if (first === undefined) return ctx.fail(node, 'syntax', 'sizeof of nothing');
  if (first.name !== 'TypeDescriptor') return { kind: 'sizeofExpr', operand: convertExpr(ctx, first), span };
  const inner = kids(first);
  const [only] = inner;
  // `sizeof(prop)`: the grammar reads any lone name as a type; a variable of that name wins when run.
  if (
    inner.length === 1 &&
    only?.name === 'TypeIdentifier' &&
    baseType([ctx.slice(only)]) === undefined &&
    !ctx.types.has(ctx.slice(only))
  ) {
    return { kind: 'sizeofName', name: ctx.slice(only), span };
  }
  // `sizeof(buffers[0])`: read as a type `buffers` with an array declarator; a name that is no type makes it an expression.
  const named = only?.name === 'TypeIdentifier' ? ctx.slice(only) : undefined;
  if (named !== undefined && baseType([named]) === undefined && !ctx.types.has(named)) {
    const text = `(${ctx.slice(first)});`;
    const reread = parser.parse(text).topNode.firstChild?.firstChild;
    if (reread !== null && reread !== undefined)
      return { kind: 'sizeofExpr', operand: convertExpr(ctx.derive(text, first.from - 1), reread), span };
  }
  return { kind: 'sizeofType', type: typeDescriptor(ctx, first), span };
}

function callAtom(ctx: ParseContext, node: SyntaxNode, span: Span): Expr {
  const [callee, argList] = kids(node);
  if (callee === undefined || argList === undefined) return ctx.fail(node, 'syntax', 'incomplete call');
  const args = kids(argList).map((arg) => convertExpr(ctx, arg));
  if (callee.name === 'TemplateFunction') {
    const made = smartMaker(ctx, callee, args, span, (item) => typeDescriptor(ctx, item));
    if (made !== undefined) return made;
    const [name, templateArgs] = kids(callee);
    const style = name === undefined ? '' : ctx.slice(name);
    const descriptor = templateArgs === undefined ? undefined : kids(templateArgs)[0];
    const [operand] = args;
    if (!CASTS.has(style) || descriptor === undefined || operand === undefined || args.length !== 1) {
      return ctx.unsupported(callee, `The template call "${ctx.slice(callee)}" (only static_cast, reinterpret_cast and const_cast are)`);
    }
    const cast: CastStyle = style === 'static_cast' ? 'static_cast' : style === 'reinterpret_cast' ? 'reinterpret_cast' : 'const_cast';
    return castTo(typeDescriptor(ctx, descriptor), cast, operand, span);
  }
  if (callee.name === 'FieldExpression') {
    const [target, member] = kids(callee);
    if (target === undefined || member === undefined) return ctx.fail(callee, 'syntax', 'incomplete member call');
    const arrow = operatorBetween(ctx, target, member) === '->';
    return { kind: 'method', target: convertExpr(ctx, target), name: ctx.slice(member), arrow, args, span };
  }
  let name: string;
  if (callee.name === 'ScopedIdentifier') {
    const text = ctx.slice(callee).replace(/\s+/g, '').replace(/^::/, '');
    const outOfScope = OUT_OF_SCOPE_CALLS.get(text);
    if (outOfScope !== undefined) return ctx.outOfScope(callee, outOfScope);
    // `std::printf`, `std::malloc`: the C library's functions under their std:: names.
    name = text.replace(/^std::/, '');
  } else if (callee.name === 'Identifier') name = ctx.slice(callee);
  else if ((callee.name === 'PrimitiveType' || callee.name === 'SizedTypeSpecifier') && args.length === 1 && args[0] !== undefined)
    // `int(npu_id / 2)`, `size_t(n)`: a functional cast, as `(int)(npu_id / 2)`.
    return castTo(baseOf(ctx, callee), 'c', args[0], span);
  // `[&]() -> int32_t { … }()`: a lambda called where it is written is still a lambda.
  else if (callee.name === 'LambdaExpression') return ctx.outOfScope(callee, 'A lambda');
  else return ctx.unsupported(callee, `Calling "${ctx.slice(callee)}" (only named functions can be called)`);
  const outOfScope = OUT_OF_SCOPE_CALLS.get(name);
  if (outOfScope !== undefined) return ctx.outOfScope(callee, outOfScope);
  const configCount = ctx.launches.get(callee.from);
  const call = { kind: 'call' as const, callee: name, calleeSpan: ctx.span(callee), args, span };
  return configCount === undefined ? call : { ...call, launch: { configCount } };
}
