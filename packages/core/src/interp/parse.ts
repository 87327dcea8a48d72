import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/cpp';
import type { FunctionDef, Program, Stmt } from './ast.ts';
import { type Diagnostic, diagnostic, LineIndex } from './diagnostics.ts';
import type { BuildDefines } from './macros.ts';
import { kids, outOfScopeMessage, ParseContext, ParseFailure, SUPPORTED } from './parse-context.ts';
import { convertExpr } from './parse-expr.ts';
import { convertDeclaration, convertFunction, convertStatement, PROTOTYPE } from './parse-stmt.ts';
import { aliasDeclaration, baseOf, typeDefinition } from './parse-types.ts';
import { preprocess } from './preprocess.ts';

/** At most this many syntax errors are reported: after the first few, the rest are usually echoes. */
const MAX_SYNTAX_ERRORS = 5;

const IGNORED_TOP_LEVEL = new Set(['LineComment', 'BlockComment', ';']);

function syntaxErrors(ctx: ParseContext, top: SyntaxNode, source: string, origin: (offset: number) => number): Diagnostic[] {
  const found: Diagnostic[] = [];
  const cursor = top.cursor();
  do {
    if (!cursor.type.isError) continue;
    const span = ctx.span(cursor);
    if (found.some((d) => d.line === span.line)) continue;
    const bad = ctx.text.slice(cursor.from, cursor.to).trim();
    const where = `syntax error at line ${span.line}, column ${span.column}`;
    let message: string;
    const macro = enclosingMacro(ctx.text, cursor.from);
    if (macro !== undefined) {
      const shown =
        bad !== '' ? bad.split('\n')[0] : (/^(?:[A-Za-z_0-9]+|\S)/.exec(source.slice(origin(cursor.from)).trimStart())?.[0] ?? '');
      found.push(
        diagnostic(
          'error',
          'syntax',
          span,
          `${where}: "${shown}" inside the arguments of ${macro}(…), a macro the code does not define (its #define is in a header, and PageLens reads no headers): paste the #define above its first use, or build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
        ),
      );
      continue;
    }
    // `alignas(64) std::mutex m;`: the grammar does not read alignment specifiers, so name the construct instead of the token after it.
    const lineStart = ctx.text.lastIndexOf('\n', cursor.from - 1) + 1;
    const aligned = /\balignas\s*\(/.exec(ctx.text.slice(lineStart, cursor.to + 1));
    if (aligned !== null) {
      const at = ctx.span({ from: lineStart + aligned.index, to: lineStart + aligned.index + aligned[0].length });
      found.push(diagnostic('error', 'unsupported', at, outOfScopeMessage('An alignment specifier (alignas)', at.line, at.column)));
      continue;
    }
    if (bad !== '') message = `${where}: unexpected "${bad.split('\n')[0]}".`;
    else {
      const rest = source.slice(origin(cursor.from)).trimStart();
      const next = /^(?:[A-Za-z_0-9]+|\S)/.exec(rest)?.[0];
      message =
        next === undefined ? `${where}: the code ends too early.` : `${where}: unexpected "${next}" (is something missing before it?).`;
    }
    found.push(diagnostic('error', 'syntax', span, `${message} ${SUPPORTED}`));
  } while (found.length < MAX_SYNTAX_ERRORS && cursor.next());
  return found;
}

/**
 * The macro-style name (`ACL_REQUIRES_SUCCESS`) whose still-open argument list holds `offset`, when
 * there is one: a macro no #define defined, whose arguments are statements (`…, return false)`)
 * that only its header's expansion makes C.
 */
function enclosingMacro(text: string, offset: number): string | undefined {
  let depth = 0;
  for (let i = offset - 1; i >= 0 && i > offset - 4000; i -= 1) {
    const c = text[i];
    if (c === ')') depth += 1;
    else if (c === '(') {
      if (depth > 0) {
        depth -= 1;
        continue;
      }
      const name = /([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(text.slice(Math.max(0, i - 80), i))?.[1];
      return name !== undefined && /^[A-Z][A-Z0-9_]*_[A-Z0-9_]*$/.test(name) ? name : undefined;
    } else if ((c === ';' || c === '{' || c === '}') && depth === 0) return undefined;
  }
  return undefined;
}

interface Collected {
  readonly functions: Map<string, FunctionDef>;
  readonly topLevel: Stmt[];
  readonly diagnostics: Diagnostic[];
}

/**
 * The items of a file, a namespace or an `extern "C"` block. A function in `namespace memory` is
 * named `memory::WriteFile`; an anonymous namespace adds nothing to its names; variables keep
 * their plain names. Returns how many statements outside functions were met (a fragment).
 */
function topLevelItems(ctx: ParseContext, nodes: readonly SyntaxNode[], into: Collected): number {
  let statements = 0;
  for (const node of nodes) {
    if (IGNORED_TOP_LEVEL.has(node.name)) continue;
    const before = into.topLevel.length;
    try {
      topLevelItem(ctx, node, into, (count) => {
        statements += count;
      });
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      into.diagnostics.push(error.diagnostic);
    }
    classMethods(ctx, into);
    // An enum's constants are declared before the item that defined them runs.
    const pending = ctx.pendingDecls;
    ctx.pendingDecls = [];
    into.topLevel.splice(before, 0, ...pending);
  }
  return statements;
}

/**
 * A second function of one name is an overload by its number of parameters (`Foo::Foo()` and
 * `Foo::Foo(int32_t id)`), stored as `name/count` (resolve-function.ts); one with the same count is
 * an error, as PageLens does not tell parameter types apart.
 */
function addFunction(ctx: ParseContext, node: SyntaxNode, name: string, fn: FunctionDef, into: Collected): void {
  const known = into.functions.get(name);
  const key = known === undefined ? name : `${name}/${fn.params.length}`;
  if (known?.params.length === fn.params.length || into.functions.has(key)) {
    const { line, column } = ctx.span(node);
    ctx.fail(
      node,
      'redeclared',
      `the function ${name} is defined twice with ${fn.params.length} parameter(s) at line ${line}, column ${column}: PageLens tells overloads apart only by their number of parameters, not by parameter types or qualifiers (\`T& f() &\`, \`const T& f() const&\`); if they are overloads, build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
    );
  }
  into.functions.set(key, { ...fn, name });
}

/** Member functions a class body defined: converted once the class is complete. */
function classMethods(ctx: ParseContext, into: Collected): void {
  const pending = ctx.pendingMethods.splice(0);
  for (const { ctx: at, owner, node } of pending) {
    try {
      const fn = convertFunction(at, node, owner);
      addFunction(at, node, fn.name, fn, into);
    } catch (error) {
      if (!(error instanceof ParseFailure)) throw error;
      into.diagnostics.push(error.diagnostic);
    }
  }
}

function topLevelItem(ctx: ParseContext, node: SyntaxNode, into: Collected, counted: (statements: number) => void): void {
  switch (node.name) {
    case 'FunctionDefinition': {
      const fn = convertFunction(ctx, node);
      addFunction(ctx, node, fn.owner !== undefined || fn.name.includes('::') ? fn.name : [...ctx.namespace, fn.name].join('::'), fn, into);
      break;
    }
    case 'Declaration': {
      const decl = convertDeclaration(ctx, node);
      if (decl !== PROTOTYPE) into.topLevel.push(decl);
      break;
    }
    case 'NamespaceDefinition': {
      const name = kids(node).find((k) => k.name === 'Identifier' || k.name === 'NamespaceIdentifier');
      const body = kids(node).find((k) => k.name === 'CompoundStatement' || k.name === 'DeclarationList');
      const outer = ctx.namespace;
      ctx.namespace = name === undefined ? outer : [...outer, ...ctx.slice(name).split('::')];
      ctx.namespaces.add(ctx.namespace.join('::'));
      try {
        counted(topLevelItems(ctx, body === undefined ? [] : kids(body), into));
      } finally {
        ctx.namespace = outer;
      }
      break;
    }
    case 'LinkageSpecification': {
      const body = kids(node).find((k) => k.name === 'CompoundStatement' || k.name === 'DeclarationList');
      counted(
        topLevelItems(ctx, body === undefined ? kids(node).filter((k) => k.name !== 'String' && k.name !== 'extern') : kids(body), into),
      );
      break;
    }
    case 'UsingDeclaration':
      // `using namespace x;` and `using x::f;`: calls find functions of any namespace by their plain name.
      break;
    case 'AliasDeclaration':
      aliasDeclaration(ctx, node);
      break;
    case 'TypeDefinition':
      typeDefinition(ctx, node);
      break;
    case 'StructSpecifier':
    case 'ClassSpecifier':
    case 'UnionSpecifier':
    case 'EnumSpecifier':
      baseOf(ctx, node);
      break;
    case 'TemplateDeclaration':
      ctx.outOfScope(node, `A template the code defines ("${ctx.slice(node).split('\n')[0]?.trim()}")`);
      break;
    default:
      into.topLevel.push(convertStatement(ctx, node));
      counted(1);
  }
}

export interface ParseResult {
  readonly program: Program;
  readonly diagnostics: readonly Diagnostic[];
}

export function parseProgram(source: string, defines: BuildDefines = {}): ParseResult {
  const pre = preprocess(source, defines);
  const lines = new LineIndex(source);
  const origin = (offset: number) => pre.origin[Math.min(Math.max(offset, 0), pre.origin.length - 1)] ?? source.length;
  const ctx = new ParseContext(pre.text, origin, lines, new Map(pre.launches.map((l) => [l.at, l.configCount])));
  ctx.convertValue = (node) => convertExpr(ctx, node);
  for (const p of pre.placeholders) {
    const at = lines.span(0, 0);
    const span = { ...at, line: p.line, endLine: p.line, column: 1 };
    const what = p.blanked ? 'is a placeholder for code the sample leaves out: skipped' : 'marks code the sample leaves out';
    ctx.notes.push(diagnostic('note', 'placeholder', span, `"${p.text}" ${what}`));
  }
  const directiveErrors: Diagnostic[] = [];
  for (const d of pre.directives) {
    const found = diagnostic(d.severity, 'preprocessor', lines.span(d.from, d.to), d.message);
    (d.severity === 'error' ? directiveErrors : ctx.notes).push(found);
  }
  const tree = parser.parse(pre.text);
  const diagnostics: Diagnostic[] = [...directiveErrors, ...syntaxErrors(ctx, tree.topNode, source, origin)];
  const functions = new Map<string, FunctionDef>();
  const topLevel: Stmt[] = [];
  let isScript = false;
  if (diagnostics.length === 0) {
    const scriptStatements = topLevelItems(ctx, kids(tree.topNode), { functions, topLevel, diagnostics });
    isScript = scriptStatements > 0;
  }
  const defaultEntry = functions.has('main') ? 'main' : functions.size === 1 ? [...functions.keys()][0] : undefined;
  const program: Program = {
    source,
    functions,
    topLevel,
    isScript,
    ...(defaultEntry === undefined ? {} : { defaultEntry }),
    notes: [...ctx.notes],
    errors: diagnostics,
    statementLines: [...ctx.statementLines].sort((a, b) => a - b),
  };
  return { program, diagnostics };
}
