import type { SyntaxNode } from '@lezer/common';
import { ACL_CONSTANTS } from '../acl/enums.ts';
import type { Declarator, Expr } from './ast.ts';
import { C_LIBRARY_STRUCTS } from './c-library.ts';
import { baseType, type CType, type FieldInfo, INT, pointerTo, type StructType, VOID } from './c-type-model.ts';
import { foldConstant } from './const-fold.ts';
import { FILE_STREAM_TYPES, libraryType } from './library-types.ts';
import { child, hasQualifier, kids, type ParseContext, ParseFailure, unknownTypeMessage } from './parse-context.ts';

/*
 * Types as the code writes them: base types, declarators (`*p`, `a[8]`, `&r`), and the types the
 * code defines: structs, classes and unions as plain data, `typedef` and `using T = …`.
 */

const TYPE_NODES = new Set([
  'PrimitiveType',
  'TypeIdentifier',
  'SizedTypeSpecifier',
  'StructSpecifier',
  'ClassSpecifier',
  'UnionSpecifier',
  'EnumSpecifier',
  'TemplateType',
  'ScopedTypeIdentifier',
]);
const QUALIFIERS = new Set(['const', 'constexpr', 'volatile', 'static', 'extern', 'inline', 'register', 'auto', 'signed', 'unsigned']);

export const DECLARATOR_NODES = new Set([
  'Identifier',
  'FieldIdentifier',
  'TypeIdentifier',
  'InitDeclarator',
  'PointerDeclarator',
  'ArrayDeclarator',
  'FunctionDeclarator',
  'ReferenceDeclarator',
]);

/** `f(int)`, `*f(int)`, `&f()`: a declarator that declares a function (one returning a pointer or a reference too). */
export function isFunctionDeclarator(node: SyntaxNode): boolean {
  if (node.name === 'FunctionDeclarator') return true;
  if (node.name !== 'PointerDeclarator' && node.name !== 'ReferenceDeclarator') return false;
  const inner = kids(node).find((k) => k.name !== 'const' && k.name !== 'volatile');
  return inner !== undefined && isFunctionDeclarator(inner);
}

export function isTypeNode(node: SyntaxNode): boolean {
  return TYPE_NODES.has(node.name);
}

/**
 * A default member initialiser: a literal number, `true`/`false`, `nullptr`, a string literal (for
 * a std::string member), an integer constant the code declared before (`Code::kOk` of its enum,
 * `kMaxSize`) or an ACL constant (`ACL_HOST`), or one of those in braces.
 */
function memberInitial(ctx: ParseContext, node: SyntaxNode, struct: string): number | string {
  const inner = node.name === 'InitializerList' ? kids(node) : [node];
  const [only] = inner;
  const text = only === undefined ? '0' : ctx.slice(only).trim();
  if (inner.length > 1) return ctx.unsupported(node, `The member initialiser "${ctx.slice(node)}" in the struct ${struct}`);
  if (text === 'true' || text === 'false') return text === 'true' ? 1 : 0;
  if (text === 'nullptr' || text === 'NULL') return 0;
  if (/^"[^"\\]*"$/.test(text)) return text.slice(1, -1);
  // An enumerator reads by its own name (`Code::kOk` is kOk, as defineEnum declares it).
  const constant = /^(?:\w+::)*(\w+)$/.exec(text)?.[1];
  const known = constant === undefined ? undefined : (ctx.constants.get(constant) ?? ACL_CONSTANTS.get(constant));
  if (known !== undefined) return Number(known);
  const value = Number(text.replace(/[uUlLfF]+$/, '').replace(/'/g, ''));
  if (!Number.isFinite(value))
    return ctx.unsupported(
      node,
      `The member initialiser "${ctx.slice(node)}" in the struct ${struct} (a number, a string literal, or a constant declared before works)`,
    );
  return value;
}

/**
 * `enum Name { A, B = 5 }` and `enum class Name : int { … }`: the type is a 32-bit int, and each
 * enumerator a constant declared with the code's globals (ctx.pendingDecls); `Name::A` reads as A.
 */
function defineEnum(ctx: ParseContext, node: SyntaxNode): CType {
  const nameNode = child(node, 'TypeIdentifier');
  const type: CType = { k: 'int', name: nameNode === undefined ? 'int' : ctx.slice(nameNode), bits: 32, signed: true };
  if (nameNode !== undefined) ctx.types.set(ctx.slice(nameNode), type);
  const list = child(node, 'EnumeratorList');
  let previous: Expr | undefined;
  const declarators: Declarator[] = [];
  for (const item of list === undefined ? [] : kids(list)) {
    const [id, value] = kids(item);
    if (id === undefined) continue;
    const span = ctx.span(item);
    const init: Expr =
      value !== undefined
        ? ctx.convertValue(value)
        : previous === undefined
          ? { kind: 'int', value: 0n, type: INT, text: '0', span }
          : { kind: 'binary', op: '+', left: previous, right: { kind: 'int', value: 1n, type: INT, text: '1', span }, span };
    const name = ctx.slice(id);
    const folded = foldConstant(init, ctx.constants);
    if (folded !== undefined) ctx.constants.set(name, folded);
    declarators.push({ name, type, init, span, isConst: true });
    previous = { kind: 'name', name, span };
  }
  ctx.pendingDecls.push({ kind: 'decl', declarators, span: ctx.span(node) });
  return type;
}

/** A struct, class or union with a body; when it stops, its name is remembered with why (ParseContext.failedTypes). */
function defineRecord(ctx: ParseContext, node: SyntaxNode): StructType {
  try {
    return readRecord(ctx, node);
  } catch (error) {
    const nameNode = child(node, 'TypeIdentifier');
    if (error instanceof ParseFailure && nameNode !== undefined) {
      const reason = error.diagnostic.message.split(/ at line \d+, column \d+|: not supported/)[0] ?? error.diagnostic.message;
      ctx.failedTypes.set(ctx.slice(nameNode), { line: error.diagnostic.line, reason });
    }
    throw error;
  }
}

/** A struct, class or union with a body: its members become a type, registered under its name. */
function readRecord(ctx: ParseContext, node: SyntaxNode): StructType {
  const nameNode = child(node, 'TypeIdentifier');
  const base = child(node, 'BaseClassClause');
  if (base !== undefined) ctx.outOfScope(base, `Inheritance ("${ctx.slice(base).replace(/^:\s*/, '').trim()}")`);
  const list = child(node, 'FieldDeclarationList');
  const span = ctx.span(node);
  const name = nameNode === undefined ? `(unnamed struct, line ${span.line})` : ctx.slice(nameNode);
  const members: FieldInfo[] = [];
  const methods: SyntaxNode[] = [];
  for (const field of list === undefined ? [] : kids(list)) {
    switch (field.name) {
      case 'AccessSpecifier':
        continue;
      case 'FieldDeclaration': {
        const parts = kids(field);
        if (parts.some(isFunctionDeclarator)) {
          // A member function's prototype: its definition, out of the class (`Foo::Bar`), is what runs.
          if (hasQualifier(field, 'virtual')) virtualMember(ctx, field, name, base);
          const declarator = functionDeclaratorOf(parts.find(isFunctionDeclarator));
          const method = declarator === undefined ? undefined : child(declarator, 'FieldIdentifier');
          if (hasQualifier(field, 'static') && method !== undefined) ctx.staticMethods.add(`${name}::${ctx.slice(method)}`);
          continue;
        }
        const typeNode = parts.find(isTypeNode);
        if (typeNode === undefined) return ctx.unsupported(field, `The member "${ctx.slice(field).trim()}"`);
        const memberBase = baseOf(ctx, typeNode);
        let previousEnd = typeNode.to;
        for (const part of parts) {
          if (part === typeNode || QUALIFIERS.has(part.name)) continue;
          const last = members.at(-1);
          // `int32_t layers = kDefaultLayers;`: a name after `=` is the initialiser, not another member.
          const initialiser = /=\s*$/.test(ctx.slice({ from: previousEnd, to: part.from }));
          previousEnd = part.to;
          if ((initialiser || !DECLARATOR_NODES.has(part.name)) && last !== undefined && part.from > typeNode.to) {
            members[members.length - 1] = { ...last, initial: memberInitial(ctx, part, name) };
            continue;
          }
          if (!DECLARATOR_NODES.has(part.name)) return ctx.unsupported(part, `"${ctx.slice(part)}" in the struct ${name}`);
          const declared = declare(ctx, part, memberBase);
          if (declared.ref) return ctx.unsupported(part, `A reference member in the struct ${name}`);
          members.push({ name: declared.name, type: declared.type });
        }
        continue;
      }
      case 'FunctionDefinition':
        if (hasQualifier(field, 'virtual')) virtualMember(ctx, field, name, base);
        // `Foo() = default;`, `Foo(const Foo&) = delete;`: what the compiler writes, or nothing to run.
        if (child(field, 'CompoundStatement') === undefined && /=\s*(?:default|delete)\s*;?\s*$/.test(ctx.slice(field))) continue;
        methods.push(field);
        continue;
      case 'TemplateDeclaration':
        return ctx.outOfScope(field, `A member template the code defines ("${ctx.slice(field).split('\n')[0]?.trim()}" in ${name})`);
      case 'Declaration':
        // `Foo();`, `explicit Foo(int id);`: a constructor's prototype.
        if (kids(field).some(isFunctionDeclarator)) {
          if (hasQualifier(field, 'virtual')) virtualMember(ctx, field, name, base);
          continue;
        }
        return ctx.unsupported(field, `"${ctx.slice(field).split('\n')[0]}" in the class ${name}`);
      default:
        return ctx.unsupported(field, `"${ctx.slice(field).split('\n')[0]}" in the struct ${name}`);
    }
  }
  const type: StructType = { k: 'struct', name, union: node.name === 'UnionSpecifier', members };
  if (nameNode !== undefined) ctx.types.set(name, type);
  // Converted by the parser once the class is complete, so a body may name members declared after it.
  for (const method of methods) ctx.pendingMethods.push({ ctx, owner: type, node: method });
  return type;
}

/** The FunctionDeclarator inside `*f(…)` or `&f(…)`. */
function functionDeclaratorOf(node: SyntaxNode | undefined): SyntaxNode | undefined {
  if (node === undefined || node.name === 'FunctionDeclarator') return node;
  return functionDeclaratorOf(kids(node).find((k) => k.name !== 'const' && k.name !== 'volatile'));
}

/**
 * Virtual functions need inheritance to mean anything: left to `pagelens run`, as inheritance is.
 * A virtual destructor of a class with no base is no inheritance (the Ascend samples write
 * `virtual ~MemoryPool();` out of habit): with no class derived from it, it is an ordinary destructor.
 */
function virtualMember(ctx: ParseContext, field: SyntaxNode, owner: string, base: SyntaxNode | undefined): void {
  const declarator = functionDeclaratorOf(kids(field).find(isFunctionDeclarator));
  const what = declarator === undefined ? ctx.slice(field) : (ctx.slice(declarator).split('(')[0]?.trim() ?? '');
  if (base === undefined && what.startsWith('~') && !/=\s*0\s*;?\s*$/.test(ctx.slice(field))) return;
  ctx.outOfScope(field, `The virtual member function ${what}() of ${owner} (virtual functions and inheritance)`);
}

/**
 * An ACL type outside PageLens's model (`aclmdlDesc`, `aclDataBuffer`, `aclmdlIODims`: model
 * execution and operators): an opaque object with no members that handles point to; a note says so once.
 */
function opaqueAclType(ctx: ParseContext, node: SyntaxNode, name: string): CType {
  const type: StructType = { k: 'struct', name, union: false };
  ctx.types.set(name, type);
  ctx.note(
    node,
    'unsupported',
    `${name} is an ACL type of model execution or operators, which PageLens does not model: its objects are opaque here, and the calls that use them are notes`,
  );
  return type;
}

/** The base type a type node names (`auto` is handled by the declaration). */
export function baseOf(ctx: ParseContext, node: SyntaxNode): CType {
  let words: string[];
  switch (node.name) {
    case 'PrimitiveType':
    case 'TypeIdentifier': {
      const defined = ctx.types.get(ctx.slice(node));
      if (defined !== undefined) return defined;
      words = [ctx.slice(node)];
      break;
    }
    case 'SizedTypeSpecifier':
      words = kids(node).map((k) => ctx.slice(k));
      break;
    case 'StructSpecifier':
    case 'ClassSpecifier':
    case 'UnionSpecifier':
    case 'EnumSpecifier': {
      if (child(node, 'FieldDeclarationList') !== undefined && node.name !== 'EnumSpecifier') return defineRecord(ctx, node);
      if (child(node, 'EnumeratorList') !== undefined) return defineEnum(ctx, node);
      const nameNode = child(node, 'TypeIdentifier');
      const defined = nameNode === undefined ? undefined : ctx.types.get(ctx.slice(nameNode));
      if (defined !== undefined) return defined;
      words = [ctx.slice(nameNode ?? node)];
      break;
    }
    case 'ScopedTypeIdentifier':
    case 'TemplateType':
      return libraryType(ctx, node, (descriptor) => typeDescriptor(ctx, descriptor));
    default:
      return ctx.unsupported(node, `The type "${ctx.slice(node)}"`);
  }
  // `string` after `using namespace std;`.
  if (words.length === 1 && words[0] === 'string') return { k: 'string' };
  if (words.length === 1 && (words[0] === 'stringstream' || words[0] === 'ostringstream')) return { k: 'string', stream: words[0] };
  if (words.length === 1 && FILE_STREAM_TYPES.has(words[0] ?? '')) return { k: 'ptr', to: VOID, name: `std::${words[0]}` };
  const type = baseType(words);
  if (type === undefined) {
    const name = words.join(' ');
    if (/^acl[a-zA-Z]/.test(name)) return opaqueAclType(ctx, node, name);
    const library = C_LIBRARY_STRUCTS.get(name);
    if (library !== undefined) return library;
    // Two processes on two servers talking over TCP (hicann/runtime memory/12): networking is not the playground's.
    if (SOCKET_TYPES.has(name.replace(/^struct\s+/, ''))) return ctx.outOfScope(node, `A network socket ("${name}")`);
    ctx.failIfTypeFailed(node, name, `The type ${name}`);
    const at = ctx.span(node);
    return ctx.fail(node, 'unsupported', unknownTypeMessage(name, at.line, at.column));
  }
  return type;
}

/** The socket address types of <sys/socket.h>, <netinet/in.h> and <sys/un.h>. */
const SOCKET_TYPES: ReadonlySet<string> = new Set([
  'sockaddr',
  'sockaddr_in',
  'sockaddr_in6',
  'sockaddr_storage',
  'sockaddr_un',
  'socklen_t',
]);

/** `T`, `T*`, `T**`, `T[4]` as written in a cast, template argument or sizeof. */
export function typeDescriptor(ctx: ParseContext, node: SyntaxNode): CType {
  const parts = kids(node);
  const base = parts.find(isTypeNode);
  if (base === undefined) return ctx.fail(node, 'syntax', `"${ctx.slice(node)}" is not a type`);
  let type = baseOf(ctx, base);
  for (const part of parts) {
    if (part.name === 'AbstractPointerDeclarator') {
      const stars = ctx.slice(part).split('*').length - 1;
      for (let i = 0; i < stars; i += 1) type = pointerTo(type);
    } else if (part.name === 'AbstractArrayDeclarator') {
      const [size] = kids(part);
      if (size === undefined) return ctx.unsupported(part, 'An array type without a size');
      type = { k: 'array', of: type, length: arrayLength(ctx, size) };
    } else if (part.name === 'AbstractReferenceDeclarator') {
      // `const T&` in a template argument or cast reads as T.
    } else if (part.name === 'AbstractFunctionDeclarator') {
      // `using F = aclError (*)(aclrtStreamConfigHandle*)`: functions as values (callbacks, dlsym'd entry points).
      return ctx.outOfScope(node, `A function pointer type ("${ctx.slice(node)}")`);
    } else if (part !== base && !QUALIFIERS.has(part.name)) {
      return ctx.unsupported(part, `The type form "${ctx.slice(part)}"`);
    }
  }
  return type;
}

/** An array's size: an integer constant expression (literals, sizeof, earlier const/constexpr integers). */
function arrayLength(ctx: ParseContext, node: SyntaxNode): number {
  const value = foldConstant(ctx.convertValue(node), ctx.constants);
  if (value === undefined || value < 0n || value > 2n ** 24n)
    return ctx.unsupported(
      node,
      `The array size "${ctx.slice(node)}" (PageLens needs a constant: a literal, sizeof, or a const/constexpr integer, up to 16,777,216 elements)`,
    );
  return Number(value);
}

/** C declarator semantics: `*D` declares D as pointer to T, `D[n]` as array of n T (inside out); `&D` a reference to T. */
export function declare(ctx: ParseContext, node: SyntaxNode, type: CType): { name: string; type: CType; ref: boolean } {
  switch (node.name) {
    case 'Identifier':
    case 'FieldIdentifier':
    case 'TypeIdentifier':
      return { name: ctx.slice(node), type, ref: false };
    case 'PointerDeclarator': {
      const inner = kids(node).find((k) => k.name !== 'const' && k.name !== 'volatile');
      if (inner === undefined) return ctx.fail(node, 'syntax', `cannot read the declarator "${ctx.slice(node)}"`);
      return declare(ctx, inner, pointerTo(type));
    }
    case 'ReferenceDeclarator': {
      const inner = kids(node).find((k) => k.name !== 'const' && k.name !== 'volatile');
      if (inner === undefined) return ctx.fail(node, 'syntax', `cannot read the declarator "${ctx.slice(node)}"`);
      if (ctx.text.slice(node.from, inner.from).includes('&&')) return ctx.outOfScope(node, 'An rvalue reference (T&&, move semantics)');
      return { ...declare(ctx, inner, type), ref: true };
    }
    case 'ArrayDeclarator': {
      const [inner, size] = kids(node);
      if (inner === undefined) return ctx.fail(node, 'syntax', `cannot read the declarator "${ctx.slice(node)}"`);
      if (size === undefined) return declare(ctx, inner, { k: 'array', of: type, length: -1 });
      const length = arrayLength(ctx, size);
      return declare(ctx, inner, { k: 'array', of: type, length });
    }
    case 'ScopedIdentifier': {
      // `aclrtContext SampleProcess::context_ = nullptr;`: a static member, defined out of its class.
      const qualified = ctx.slice(node).replace(/\s+/g, '');
      const owner = qualified.split('::').at(-2) ?? '';
      const at = ctx.span(node);
      if (ctx.types.get(owner)?.k === 'struct')
        return ctx.unsupported(node, `The static data member ${qualified} (a variable shared by every ${owner}; write it as a global)`);
      return ctx.fail(
        node,
        'unsupported',
        `${qualified} at line ${at.line}, column ${at.column} is a static member of ${owner}, a class the code does not define (its definition is in a header, and PageLens reads no headers): paste the class definition above it, or build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
      );
    }
    default:
      return ctx.unsupported(node, `The declarator "${ctx.slice(node)}"`);
  }
}

/** `typedef T name;` and `typedef struct {…} Name;`: each declarator names a type. */
export function typeDefinition(ctx: ParseContext, node: SyntaxNode): undefined {
  const parts = kids(node).filter((p) => p.name !== 'typedef');
  const typeNode = parts.find(isTypeNode);
  if (typeNode === undefined) return ctx.unsupported(node, `The typedef "${ctx.slice(node)}"`);
  const base = baseOf(ctx, typeNode);
  for (const part of parts) {
    if (part === typeNode || QUALIFIERS.has(part.name)) continue;
    if (part.name === 'FunctionDeclarator' || kids(part).some((k) => k.name === 'FunctionDeclarator'))
      return ctx.unsupported(part, 'A typedef of a function type (function pointers)');
    const declared = declare(ctx, part, base);
    // `typedef struct { … } Name;`: the unnamed struct takes the typedef's name.
    const type =
      declared.type.k === 'struct' && declared.type.name.startsWith('(unnamed') ? { ...declared.type, name: declared.name } : declared.type;
    ctx.types.set(declared.name, type);
  }
  return undefined;
}

/** `using Name = T;` */
export function aliasDeclaration(ctx: ParseContext, node: SyntaxNode): undefined {
  const name = child(node, 'TypeIdentifier');
  const descriptor = child(node, 'TypeDescriptor');
  if (name === undefined || descriptor === undefined) return ctx.unsupported(node, `"${ctx.slice(node)}"`);
  ctx.types.set(ctx.slice(name), typeDescriptor(ctx, descriptor));
  return undefined;
}
