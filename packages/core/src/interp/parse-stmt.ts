import type { SyntaxNode } from '@lezer/common';
import type { Declarator, Expr, FunctionDef, MemberInit, Param, Stmt } from './ast.ts';
import { type CType, pointerTo, type StructType, VOID } from './c-type-model.ts';
import { utf8 } from './char-array-init.ts';
import { foldConstant } from './const-fold.ts';
import type { Span } from './diagnostics.ts';
import { child, hasQualifier, kids, type ParseContext } from './parse-context.ts';
import { convertExpr } from './parse-expr.ts';
import { baseOf, DECLARATOR_NODES, declare, isFunctionDeclarator, isTypeNode } from './parse-types.ts';

/** A function prototype (`int f(int);`): nothing to run. */
export const PROTOTYPE = Symbol('prototype');

const SKIPPED_QUALIFIERS = new Set(['const', 'constexpr', 'static', 'auto', 'extern', 'volatile', 'register', 'inline']);

/** `name(a, b)` read as a function declarator whose parameters are all plain names: a constructor call. */
function constructorCall(ctx: ParseContext, node: SyntaxNode): { name: string; args: Expr[] } | undefined {
  const name = child(node, 'Identifier');
  const list = child(node, 'ParameterList');
  if (name === undefined || list === undefined) return undefined;
  const args: Expr[] = [];
  for (const param of kids(list)) {
    const only = kids(param);
    const [first] = only;
    const named = first?.name === 'TypeIdentifier' || first?.name === 'ScopedTypeIdentifier';
    if (param.name !== 'ParameterDeclaration' || only.length !== 1 || first === undefined || !named) return undefined;
    args.push({ kind: 'name', name: ctx.slice(first).replace(/\s+/g, ''), span: ctx.span(first) });
  }
  return { name: ctx.slice(name), args };
}

export function convertDeclaration(ctx: ParseContext, node: SyntaxNode): Stmt | typeof PROTOTYPE {
  const parts = kids(node);
  const typeNode = parts.find(isTypeNode);
  const isAuto = typeNode === undefined && hasQualifier(node, 'auto');
  if (typeNode === undefined && !isAuto) return ctx.fail(node, 'syntax', `"${ctx.slice(node)}" declares nothing PageLens can read`);
  const base = typeNode === undefined ? undefined : baseOf(ctx, typeNode);
  // `extern bool g_isDevice;`: the variable is defined elsewhere (another file of the program), so this defines nothing.
  if (hasQualifier(node, 'extern') && !parts.some((part) => part.name === 'InitDeclarator')) return PROTOTYPE;
  const constant = hasQualifier(node, 'const') || hasQualifier(node, 'constexpr');
  const declarators: Declarator[] = [];
  for (const part of parts) {
    if (part === typeNode) continue;
    if (!DECLARATOR_NODES.has(part.name)) {
      if (SKIPPED_QUALIFIERS.has(part.name)) continue;
      if (part.name === 'thread_local') {
        // The playground runs one thread, whose copy is the only one: an ordinary variable.
        ctx.note(part, 'unsupported', 'thread_local: the playground runs one thread, so this is an ordinary variable (its one copy)');
        continue;
      }
      return ctx.unsupported(part, `"${ctx.slice(part)}" in a declaration`);
    }
    if (part.name !== 'FunctionDeclarator' && isFunctionDeclarator(part)) return PROTOTYPE;
    if (part.name === 'FunctionDeclarator') {
      // `std::vector<float> host(kCount);` reads as a prototype (C++'s most vexing parse); for a library type it is a constructor.
      const isObject =
        base?.k === 'vector' ||
        base?.k === 'string' ||
        base?.k === 'smart' ||
        (base?.k === 'ptr' && base.name?.startsWith('std::') === true) ||
        (base?.k === 'struct' && base.members !== undefined);
      const vexing = isObject ? constructorCall(ctx, part) : undefined;
      if (vexing === undefined) return PROTOTYPE;
      declarators.push({ name: vexing.name, type: base ?? VOID, ctorArgs: vexing.args, span: ctx.span(part), isConst: constant });
      continue;
    }
    const [target, init] = part.name === 'InitDeclarator' ? kids(part) : [part, undefined];
    if (target === undefined) return ctx.fail(part, 'syntax', 'incomplete declarator');
    if (isFunctionDeclarator(target)) return PROTOTYPE;
    // `auto` has no type yet: declare against a placeholder and keep only the name and the reference.
    const declared = declare(ctx, target, base ?? VOID);
    // `auto* p = …` and `auto& r = …` take their type from the initialiser too.
    let type: CType | undefined = base === undefined ? undefined : declared.type;
    const ctorArgs = init?.name === 'ArgumentList' ? kids(init).map((arg) => convertExpr(ctx, arg)) : undefined;
    const initExpr: Expr | undefined = init === undefined || ctorArgs !== undefined ? undefined : convertExpr(ctx, init);
    if (type?.k === 'array' && type.length === -1 && initExpr?.kind === 'string')
      type = { ...type, length: utf8(initExpr.value).length + 1 };
    else if (type?.k === 'array' && type.length === -1) {
      if (initExpr?.kind !== 'initList') return ctx.fail(part, 'type', `the array "${declared.name}" needs a size or an initialiser list`);
      type = { ...type, length: initExpr.items.length };
    }
    if (isAuto && initExpr === undefined) return ctx.fail(part, 'type', `"auto ${declared.name}" needs an initialiser`);
    if (declared.ref && initExpr === undefined)
      return ctx.fail(part, 'type', `the reference "${declared.name}" needs an object to refer to`);
    const isConst = constant && type?.k !== 'ptr';
    if (isConst && initExpr !== undefined && (type === undefined || type.k === 'int')) {
      const folded = foldConstant(initExpr, ctx.constants);
      if (folded !== undefined) ctx.constants.set(declared.name, folded);
    }
    const plain: Declarator = { name: declared.name, span: ctx.span(part), isConst, ...(declared.ref ? { ref: true } : {}) };
    const withType = type === undefined ? plain : { ...plain, type };
    const withCtor = ctorArgs === undefined ? withType : { ...withType, ctorArgs };
    declarators.push(initExpr === undefined ? withCtor : { ...withCtor, init: initExpr });
  }
  return { kind: 'decl', declarators, span: ctx.span(node) };
}

function condition(ctx: ParseContext, node: SyntaxNode | undefined, owner: SyntaxNode): Expr {
  const inner = node === undefined ? undefined : node.name === 'ConditionClause' ? kids(node)[0] : node;
  if (inner === undefined) return ctx.fail(owner, 'syntax', 'missing condition');
  if (inner.name === 'Declaration') return ctx.unsupported(inner, 'A declaration inside a condition');
  return convertExpr(ctx, inner.name === 'ParenthesizedExpression' ? (kids(inner)[0] ?? inner) : inner);
}

/** `for (init; test; update)`: the semicolons are unnamed tokens, so a clause's slot is counted from the text. */
function forStatement(ctx: ParseContext, node: SyntaxNode): Stmt {
  const parts = kids(node);
  const body = parts.at(-1);
  if (body === undefined) return ctx.fail(node, 'syntax', 'incomplete for statement');
  let slot = 0;
  let cursor = ctx.text.indexOf('(', node.from) + 1;
  const clauses: { init?: Stmt; test?: Expr; update?: Expr } = {};
  for (const part of parts.slice(0, -1)) {
    slot += (ctx.text.slice(cursor, part.from).match(/;/g) ?? []).length;
    cursor = part.to;
    if (part.name === 'Declaration') {
      const decl = convertDeclaration(ctx, part);
      if (decl === PROTOTYPE) return ctx.unsupported(part, 'A prototype in a for clause');
      clauses.init = decl;
      slot += 1;
    } else if (slot === 0) clauses.init = { kind: 'expr', expr: convertExpr(ctx, part), span: ctx.span(part) };
    else if (slot === 1) clauses.test = convertExpr(ctx, part);
    else clauses.update = convertExpr(ctx, part);
  }
  return { kind: 'for', ...clauses, body: convertStatement(ctx, body), span: ctx.span(node) };
}

/** `for (auto& x : range)`, `for (const float v : values)`. */
function rangeFor(ctx: ParseContext, node: SyntaxNode): Stmt {
  const parts = kids(node);
  const body = parts.at(-1);
  const range = parts.at(-2);
  const target = parts.at(-3);
  if (body === undefined || range === undefined || target === undefined || !DECLARATOR_NODES.has(target.name))
    return ctx.fail(node, 'syntax', 'incomplete range-based for loop');
  const typeNode = parts.find(isTypeNode);
  const declared = declare(ctx, target, typeNode === undefined ? VOID : baseOf(ctx, typeNode));
  const item: Declarator = {
    name: declared.name,
    span: ctx.span(target),
    isConst: hasQualifier(node, 'const'),
    ...(typeNode === undefined ? {} : { type: declared.type }),
    ...(declared.ref ? { ref: true } : {}),
  };
  return { kind: 'rangeFor', item, range: convertExpr(ctx, range), body: convertStatement(ctx, body), span: ctx.span(node) };
}

/** `switch (x) { case A: …; default: … }`: the labels' statements in one list, each label pointing into it. */
function switchStatement(ctx: ParseContext, node: SyntaxNode): Stmt {
  const parts = kids(node).filter((p) => p.name !== 'switch');
  const [test, block] = parts;
  if (test === undefined || block?.name !== 'CompoundStatement') return ctx.fail(node, 'syntax', 'incomplete switch statement');
  const body: Stmt[] = [];
  const labels: { at: number; value?: Expr; span: Span }[] = [];
  for (const item of kids(block)) {
    if (item.name !== 'CaseStatement') {
      // Before the first label: never reached, but C allows it.
      body.push(convertStatement(ctx, item));
      continue;
    }
    const [keyword, ...rest] = kids(item);
    const isDefault = keyword?.name === 'default';
    const value = isDefault ? undefined : rest.shift();
    if (!isDefault && value === undefined) return ctx.fail(item, 'syntax', 'a case label needs a value');
    if (isDefault && labels.some((label) => label.value === undefined)) return ctx.fail(item, 'syntax', 'a switch has two default labels');
    const span = ctx.span(item);
    labels.push(value === undefined ? { at: body.length, span } : { at: body.length, value: convertExpr(ctx, value), span });
    for (const stmt of rest) body.push(convertStatement(ctx, stmt));
  }
  return { kind: 'switch', test: condition(ctx, test, node), body, labels, span: ctx.span(node) };
}

export function convertStatement(ctx: ParseContext, node: SyntaxNode): Stmt {
  const span = ctx.span(node);
  const parts = kids(node);
  const [first, second] = parts;
  if (node.name !== 'CompoundStatement') ctx.statementLines.add(span.line);
  switch (node.name) {
    case 'ExpressionStatement':
      return first === undefined ? { kind: 'empty', span } : { kind: 'expr', expr: convertExpr(ctx, first), span };
    case 'Declaration': {
      const decl = convertDeclaration(ctx, node);
      if (decl === PROTOTYPE) {
        ctx.note(node, 'preprocessor', `the prototype "${ctx.slice(node).trim()}" is skipped: only definitions run`);
        return { kind: 'empty', span };
      }
      return decl;
    }
    case 'CompoundStatement':
      return { kind: 'block', body: parts.map((part) => convertStatement(ctx, part)), span };
    case 'StaticAssertDeclaration':
      return staticAssert(ctx, node, span);
    case 'IfStatement': {
      const rest = parts.filter((p) => p.name !== 'if' && p.name !== 'else');
      const [test, consequent, alternate] = rest;
      if (consequent === undefined) return ctx.fail(node, 'syntax', 'incomplete if statement');
      const stmt = { kind: 'if' as const, test: condition(ctx, test, node), consequent: convertStatement(ctx, consequent), span };
      return alternate === undefined ? stmt : { ...stmt, alternate: convertStatement(ctx, alternate) };
    }
    case 'WhileStatement':
      if (second === undefined) return ctx.fail(node, 'syntax', 'incomplete while statement');
      return { kind: 'while', test: condition(ctx, first, node), body: convertStatement(ctx, second), span };
    case 'DoStatement': {
      const rest = parts.filter((p) => p.name !== 'do' && p.name !== 'while');
      const [body, test] = rest;
      if (body === undefined) return ctx.fail(node, 'syntax', 'incomplete do statement');
      return { kind: 'do', body: convertStatement(ctx, body), test: condition(ctx, test, node), span };
    }
    case 'ForStatement':
      return forStatement(ctx, node);
    case 'ForRangeLoop':
      return rangeFor(ctx, node);
    case 'ReturnStatement': {
      const value = parts.find((p) => p.name !== 'return');
      return value === undefined ? { kind: 'return', span } : { kind: 'return', value: convertExpr(ctx, value), span };
    }
    case 'BreakStatement':
      return { kind: 'break', span };
    case 'ContinueStatement':
      return { kind: 'continue', span };
    case 'SwitchStatement':
      return switchStatement(ctx, node);
    case 'GotoStatement':
    case 'LabeledStatement':
      return ctx.unsupported(node, 'goto and labels');
    case 'TryStatement':
      return ctx.outOfScope(node, 'An exception handler (try/catch)');
    case 'ThrowStatement':
      return ctx.outOfScope(node, 'Throwing an exception (throw)');
    default:
      return ctx.unsupported(node, `The statement "${ctx.slice(node).split('\n')[0]}"`);
  }
}

/**
 * `static_assert(cond, "message")`: a compile-time check. A condition PageLens can fold (integer
 * constants, sizeof) is checked as a compiler would, failing with the code's message; any other is
 * the compiler's to check, noted and passed over. Nothing runs either way.
 */
function staticAssert(ctx: ParseContext, node: SyntaxNode, span: Span): Stmt {
  const [test, message] = kids(node).filter((part) => part.name !== 'static_assert');
  const value = test === undefined ? undefined : foldConstant(convertExpr(ctx, test), ctx.constants);
  const said = message === undefined ? '' : `: ${ctx.slice(message)}`;
  if (value === 0n) return ctx.fail(node, 'type', `static_assert failed${said}`);
  ctx.note(
    node,
    'unsupported',
    value === undefined
      ? 'static_assert is checked by the compiler; PageLens cannot fold its condition and passes over it'
      : 'static_assert holds (checked when the code is read; nothing runs)',
  );
  return { kind: 'empty', span };
}

/** `: stream_(nullptr), size_{n}`: the member initialisers of a constructor. */
function memberInits(ctx: ParseContext, list: SyntaxNode | undefined): MemberInit[] {
  const inits: MemberInit[] = [];
  for (const item of list === undefined ? [] : kids(list)) {
    const [field, args] = kids(item);
    if (field === undefined || args === undefined) return ctx.unsupported(item, `The member initialiser "${ctx.slice(item)}"`);
    if (field.name !== 'FieldIdentifier') return ctx.outOfScope(item, `Initialising the base class ${ctx.slice(field)} (inheritance)`);
    inits.push({ name: ctx.slice(field), args: kids(args).map((arg) => convertExpr(ctx, arg)), span: ctx.span(item) });
  }
  return inits;
}

/** The class a qualified name `Foo::Bar` (or `ns::Foo::Bar`) belongs to, when the code defines it with members. */
function classOf(ctx: ParseContext, qualified: string): StructType | undefined {
  const name = qualified.split('::').at(-2);
  const type = name === undefined ? undefined : ctx.types.get(name);
  return type?.k === 'struct' && type.members !== undefined ? type : undefined;
}

/** A function definition; `owner` is the class whose body holds it (a member function defined in the class). */
export function convertFunction(ctx: ParseContext, node: SyntaxNode, inClass?: StructType): FunctionDef {
  const parts = kids(node);
  const typeNode = parts.find(isTypeNode);
  const body = parts.find((p) => p.name === 'CompoundStatement');
  let declarator = parts.find((p) => p.name === 'FunctionDeclarator' || p.name === 'PointerDeclarator' || p.name === 'ReferenceDeclarator');
  if (body === undefined || declarator === undefined) return ctx.unsupported(node, 'This kind of function definition');
  let returnType = typeNode === undefined ? VOID : baseOf(ctx, typeNode);
  let returnsRef = false;
  while (declarator?.name === 'PointerDeclarator' || declarator?.name === 'ReferenceDeclarator') {
    if (declarator.name === 'ReferenceDeclarator') returnsRef = true;
    else returnType = pointerTo(returnType);
    declarator = kids(declarator)[0];
  }
  const scoped = declarator === undefined ? undefined : child(declarator, 'ScopedIdentifier');
  // `int memory::Alloc(…) {…}` defines a function of a namespace; `int Buffer::Size() {…}` a member function.
  const qualified = scoped === undefined ? undefined : ctx.slice(scoped).replace(/\s+/g, '').replace(/^::/, '');
  const namespace = qualified?.slice(0, qualified.lastIndexOf('::'));
  const owner = inClass ?? (qualified === undefined ? undefined : classOf(ctx, qualified));
  if (scoped !== undefined && owner === undefined && (namespace === undefined || !ctx.namespaces.has(namespace))) {
    const at = ctx.span(scoped);
    const className = qualified?.split('::').at(-2) ?? '';
    ctx.failIfTypeFailed(scoped, className, `${qualified ?? className} (a member function of ${className})`);
    return ctx.fail(
      scoped,
      'unsupported',
      `${qualified} at line ${at.line}, column ${at.column} is a member function of ${className}, a class the code does not define (its definition is in a header, and PageLens reads no headers): paste the class definition above it, or build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
    );
  }
  const nameNode =
    declarator === undefined
      ? undefined
      : kids(declarator).find((k) => k.name === 'Identifier' || k.name === 'FieldIdentifier' || k.name === 'DestructorName');
  const list = declarator === undefined ? undefined : child(declarator, 'ParameterList');
  if ((nameNode === undefined && qualified === undefined) || list === undefined)
    return ctx.unsupported(node, 'This kind of function declarator');
  const short = qualified?.split('::').at(-1) ?? (nameNode === undefined ? '' : ctx.slice(nameNode));
  if (typeNode === undefined && (owner === undefined || (short !== owner.name && short !== `~${owner.name}`)))
    return ctx.unsupported(node, `The function ${short} without a return type`);
  const params: Param[] = [];
  for (const param of kids(list)) {
    const optional = param.name === 'OptionalParameterDeclaration';
    if (param.name !== 'ParameterDeclaration' && !optional) return ctx.unsupported(param, `The parameter "${ctx.slice(param)}"`);
    const pieces = kids(param);
    const defaultNode = optional ? pieces.at(-1) : undefined;
    const paramType = pieces.find(isTypeNode);
    const paramDeclarator = pieces.find((p) => p !== paramType && DECLARATOR_NODES.has(p.name));
    if (paramType === undefined) return ctx.unsupported(param, `The parameter "${ctx.slice(param)}"`);
    const base = baseOf(ctx, paramType);
    if (paramDeclarator === undefined) {
      if (base.k === 'void') continue;
      return ctx.unsupported(param, 'A parameter without a name');
    }
    const declared = declare(ctx, paramDeclarator, base);
    // An array parameter is a pointer (C11 6.7.6.3).
    const type = declared.type.k === 'array' ? pointerTo(declared.type.of) : declared.type;
    const fallback = defaultNode === undefined ? {} : { default: convertExpr(ctx, defaultNode) };
    params.push(declared.ref ? { name: declared.name, type, ref: true, ...fallback } : { name: declared.name, type, ...fallback });
  }
  const span = ctx.span(node);
  const ref = returnsRef ? { returnsRef } : {};
  if (owner === undefined) return { name: qualified ?? short, returnType, params, body: convertStatement(ctx, body), span, ...ref };
  const name = `${owner.name}::${short}`;
  const inits = memberInits(ctx, child(node, 'FieldInitializerList'));
  const isStatic = hasQualifier(node, 'static') || ctx.staticMethods.has(name);
  return {
    name,
    returnType,
    params,
    body: convertStatement(ctx, body),
    span,
    owner,
    ...(isStatic ? { isStatic } : {}),
    ...(inits.length > 0 ? { inits } : {}),
    ...ref,
  };
}
