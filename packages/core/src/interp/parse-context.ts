import type { SyntaxNode } from '@lezer/common';
import { baseType, type CType, KNOWN_TYPE_NAMES, pointerTo } from './c-type-model.ts';
import { type Diagnostic, type DiagnosticKind, diagnostic, type LineIndex, type Span } from './diagnostics.ts';

/** Thrown inside the parser to abandon one statement; `parse` turns it into a diagnostic and goes on. */
export class ParseFailure extends Error {
  readonly diagnostic: Diagnostic;
  constructor(d: Diagnostic) {
    super(d.message);
    this.diagnostic = d;
  }
}

/** Tokens @lezer/cpp names that carry no meaning once the tree has its shape. */
const PUNCTUATION = new Set([
  ...['(', ')', '[', ']', '{', '}', ',', ';', ':', '<', '>', '::', 'LineComment', 'BlockComment'],
  ...['sizeof', 'if', 'else', 'while', 'do', 'for', 'return', 'break', 'continue'],
]);

/** What the tree walkers share: the parsed text and the way back to the user's source. */
export class ParseContext {
  readonly text: string;
  readonly #origin: (offset: number) => number;
  readonly #lines: LineIndex;
  /** Offsets in `text` where a kernel launch's name starts → its config argument count. */
  readonly launches: ReadonlyMap<number, number>;
  readonly notes: Diagnostic[] = [];
  readonly statementLines = new Set<number>();

  constructor(text: string, origin: (offset: number) => number, lines: LineIndex, launches: ReadonlyMap<number, number>) {
    this.text = text;
    this.#origin = origin;
    this.#lines = lines;
    this.launches = launches;
  }

  /** A context for a second text whose offset 0 stands at `shift` in this one. */
  derive(text: string, shift: number): ParseContext {
    return new ParseContext(text, (offset) => this.#origin(offset + shift), this.#lines, new Map());
  }

  span(node: { from: number; to: number }): Span {
    return this.#lines.span(this.#origin(node.from), this.#origin(node.to));
  }

  slice(node: { from: number; to: number }): string {
    return this.text.slice(node.from, node.to);
  }

  fail(node: { from: number; to: number }, kind: DiagnosticKind, message: string): never {
    throw new ParseFailure(diagnostic('error', kind, this.span(node), message));
  }

  unsupported(node: SyntaxNode, what: string): never {
    return this.fail(node, 'unsupported', `${what}: not supported. ${SUPPORTED}`);
  }

  note(node: { from: number; to: number }, kind: DiagnosticKind, message: string, severity: Diagnostic['severity'] = 'note'): void {
    this.notes.push(diagnostic(severity, kind, this.span(node), message));
  }
}

export const SUPPORTED =
  'PageLens runs declarations, expressions, calls, if/else, for, while, do/while, break, continue and return, inside functions or as a plain list of statements.';

/** The children that matter: no punctuation or comments. */
export function kids(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (!PUNCTUATION.has(child.name)) out.push(child);
  }
  return out;
}

export function child(node: SyntaxNode, name: string): SyntaxNode | undefined {
  return kids(node).find((c) => c.name === name);
}

const TYPE_NODES = new Set(['PrimitiveType', 'TypeIdentifier', 'SizedTypeSpecifier', 'StructSpecifier', 'UnionSpecifier', 'EnumSpecifier']);
const QUALIFIERS = new Set(['const', 'constexpr', 'volatile', 'static', 'extern', 'inline', 'register', 'auto', 'signed', 'unsigned']);

export function isTypeNode(node: SyntaxNode): boolean {
  return TYPE_NODES.has(node.name) || node.name === 'TemplateType' || node.name === 'ScopedTypeIdentifier';
}

/** The base type a type node names (`auto` is handled by the declaration). */
export function baseOf(ctx: ParseContext, node: SyntaxNode): CType {
  let words: string[];
  switch (node.name) {
    case 'PrimitiveType':
    case 'TypeIdentifier':
      words = [ctx.slice(node)];
      break;
    case 'SizedTypeSpecifier':
      words = kids(node).map((k) => ctx.slice(k));
      break;
    case 'StructSpecifier':
    case 'UnionSpecifier':
    case 'EnumSpecifier': {
      if (child(node, 'FieldDeclarationList') !== undefined || child(node, 'EnumeratorList') !== undefined) {
        return ctx.unsupported(node, 'Defining a struct, union or enum');
      }
      words = [ctx.slice(child(node, 'TypeIdentifier') ?? node)];
      break;
    }
    default:
      return ctx.unsupported(node, `The type "${ctx.slice(node)}"`);
  }
  const type = baseType(words);
  if (type === undefined) {
    const name = words.join(' ');
    return ctx.fail(
      node,
      'unsupported',
      `unknown type "${name}": PageLens knows the C integer and float types, pointers and the ACL types (${KNOWN_TYPE_NAMES.filter((n) => n.startsWith('aclrt')).join(', ')})`,
    );
  }
  return type;
}

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
      const size = child(part, 'Number');
      if (size === undefined) return ctx.unsupported(part, 'An array type without a literal size');
      type = { k: 'array', of: type, length: Number.parseInt(ctx.slice(size), 10) };
    } else if (part !== base && !QUALIFIERS.has(part.name)) {
      return ctx.unsupported(part, `The type form "${ctx.slice(part)}"`);
    }
  }
  return type;
}

export function hasQualifier(node: SyntaxNode, name: string): boolean {
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (c.name === name) return true;
  return false;
}
