import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/cpp';
import type { FunctionDef, Program, Stmt } from './ast.ts';
import { type Diagnostic, diagnostic, LineIndex } from './diagnostics.ts';
import { kids, ParseContext, ParseFailure, SUPPORTED } from './parse-context.ts';
import { convertDeclaration, convertFunction, convertStatement, PROTOTYPE } from './parse-stmt.ts';
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

export interface ParseResult {
  readonly program: Program;
  readonly diagnostics: readonly Diagnostic[];
}

export function parseProgram(source: string): ParseResult {
  const pre = preprocess(source);
  const lines = new LineIndex(source);
  const origin = (offset: number) => pre.origin[Math.min(Math.max(offset, 0), pre.origin.length - 1)] ?? source.length;
  const ctx = new ParseContext(pre.text, origin, lines, new Map(pre.launches.map((l) => [l.at, l.configCount])));
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
    for (const node of kids(tree.topNode)) {
      if (IGNORED_TOP_LEVEL.has(node.name)) continue;
      try {
        if (node.name === 'FunctionDefinition') {
          const fn = convertFunction(ctx, node);
          if (functions.has(fn.name)) ctx.fail(node, 'redeclared', `the function ${fn.name} is defined twice`);
          functions.set(fn.name, fn);
        } else if (node.name === 'Declaration') {
          const decl = convertDeclaration(ctx, node);
          if (decl !== PROTOTYPE) topLevel.push(decl);
        } else if (node.name === 'StructSpecifier' || node.name === 'TypeDefinition' || node.name === 'NamespaceDefinition') {
          ctx.unsupported(node, 'Defining types or namespaces');
        } else {
          topLevel.push(convertStatement(ctx, node));
          isScript = true;
        }
      } catch (error) {
        if (!(error instanceof ParseFailure)) throw error;
        diagnostics.push(error.diagnostic);
      }
    }
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
