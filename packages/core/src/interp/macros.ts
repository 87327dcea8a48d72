import { evaluateCondition } from './macro-condition.ts';
import {
  append,
  EXPANSION_LIMIT,
  Expander,
  ExpansionOverflow,
  IDENT,
  isIdentPart,
  isIdentStart,
  type Macro,
  PREDEFINED,
  type Seg,
  seg,
  skipNonCode,
  slice,
} from './macro-expander.ts';

/**
 * The C preprocessor, as far as ACL programs use it: conditional sections (#if, #ifdef, #ifndef,
 * #elif, #else, #endif with defined()), object-like and function-like #define (continued lines,
 * `#` stringizing, `##` pasting, `...` with __VA_ARGS__ and GNU's `, ##__VA_ARGS__`), #undef.
 * #include is skipped: the ACL declarations are built in, and no header is read, so a macro only a
 * header defines (ASCENDC_CPU_DEBUG) is undefined.
 *
 * Every character of the result keeps the offset of the source character it came from: an
 * argument's characters their own, a macro body's the offset of the macro's name where it is used.
 * So a call inside `CHECK_ACL(aclrtMalloc(…))` is marked on its own line.
 */

export interface MacroDiagnostic {
  readonly severity: 'error' | 'warning' | 'note';
  /** Offsets in the source. */
  readonly from: number;
  readonly to: number;
  readonly message: string;
}

export interface Expanded {
  readonly text: string;
  /** origin[i] is the source offset of text[i]. */
  readonly origin: readonly number[];
  readonly diagnostics: readonly MacroDiagnostic[];
}

interface Section {
  /** This section's lines run. */
  active: boolean;
  /** A branch of this #if chain was already taken. */
  taken: boolean;
  /** The enclosing sections are active. */
  readonly outer: boolean;
  readonly line: number;
  sawElse: boolean;
}

/** One directive's text: continued lines joined, comments dropped. */
function directiveText(raw: string): string {
  let text = raw.replace(/\\\r?\n/g, ' ');
  text = text.replace(/\/\*[\s\S]*?\*\//g, ' ');
  const comment = text.indexOf('//');
  return (comment === -1 ? text : text.slice(0, comment)).trim();
}

/** `-DNAME=VALUE` flags of the program's build, as object-like macros defined before its first line (`-DNAME` is `NAME=1`). */
export type BuildDefines = Readonly<Record<string, string>>;

/** Runs the directives and expands the macros of `source` (already the length of the user's text). */
export function expandMacros(source: string, lineOf: (offset: number) => number, defines: BuildDefines = {}): Expanded {
  const diagnostics: MacroDiagnostic[] = [];
  const expander = new Expander(lineOf);
  const predefined = [...PREDEFINED, ...Object.entries(defines).map(([name, body]): [string, Macro] => [name, { variadic: false, body }])];
  for (const [name, macro] of predefined) expander.macros.set(name, macro);
  const sections: Section[] = [];
  const active = () => sections.every((s) => s.active);
  // Directive lines and skipped sections become blanks of the same length, so offsets hold.
  const code: Seg = { text: '', origin: [] };
  /** Offsets in `code` where the macro table changes, applied as the expansion passes them. */
  const changes: { at: number; name: string; macro: Macro | undefined }[] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) {
      code.text += source[k] === '\n' ? '\n' : ' ';
      code.origin.push(k);
    }
  };
  let i = 0;
  while (i < source.length) {
    let lineEnd = source.indexOf('\n', i);
    if (lineEnd === -1) lineEnd = source.length;
    const trimmed = source.slice(i, lineEnd).trimStart();
    if (trimmed.startsWith('#')) {
      const from = lineEnd - trimmed.length;
      // A directive ends at the first newline not escaped by a backslash.
      while (source[lineEnd - 1] === '\\' || (source[lineEnd - 1] === '\r' && source[lineEnd - 2] === '\\')) {
        const next = source.indexOf('\n', lineEnd + 1);
        lineEnd = next === -1 ? source.length : next;
      }
      const text = directiveText(source.slice(from + 1, lineEnd));
      const report = (severity: MacroDiagnostic['severity'], message: string) => diagnostics.push({ severity, from, to: lineEnd, message });
      directive(text, lineOf(from), report, sections, active, expander, (name, macro) =>
        changes.push({ at: code.text.length, name, macro }),
      );
      blank(i, lineEnd);
    } else if (!active()) blank(i, lineEnd);
    else {
      for (let k = i; k < lineEnd; k += 1) {
        code.text += source[k] ?? '';
        code.origin.push(k);
      }
    }
    if (lineEnd < source.length) {
      code.text += '\n';
      code.origin.push(lineEnd);
    }
    i = lineEnd + 1;
  }
  // The expansion replays the #define lines in order, from the predefined macros alone.
  expander.macros.clear();
  for (const [name, macro] of predefined) expander.macros.set(name, macro);
  for (const open of sections) {
    diagnostics.push({ severity: 'error', from: 0, to: 0, message: `the #if on line ${open.line} has no #endif` });
  }
  try {
    return { ...expandCode(code, changes, expander), diagnostics };
  } catch (error) {
    if (!(error instanceof ExpansionOverflow)) throw error;
    const message = `the macros expand to more than ${EXPANSION_LIMIT.toLocaleString('en-US')} characters here (a macro that doubles itself?): PageLens stops expanding`;
    return {
      text: code.text,
      origin: code.origin,
      diagnostics: [...diagnostics, { severity: 'error', from: error.at, to: error.at + 1, message }],
    };
  }
}

/** The top-level expansion: like Expander.expand, but the macro table follows the #define lines it passes. */
function expandCode(code: Seg, changes: readonly { at: number; name: string; macro: Macro | undefined }[], expander: Expander) {
  const out: Seg = { text: '', origin: [] };
  let next = 0;
  let i = 0;
  const none = new Set<string>();
  while (i < code.text.length) {
    for (let change = changes[next]; change !== undefined && change.at <= i; change = changes[next]) {
      if (change.macro === undefined) expander.macros.delete(change.name);
      else expander.macros.set(change.name, change.macro);
      next += 1;
    }
    const skipped = skipNonCode(code.text, i);
    if (skipped !== i) {
      append(out, slice(code, i, skipped));
      i = skipped;
      continue;
    }
    const c = code.text[i];
    if (!isIdentStart(c) || isIdentPart(code.text[i - 1])) {
      append(out, slice(code, i, i + 1));
      i += 1;
      continue;
    }
    IDENT.lastIndex = i;
    const name = IDENT.exec(code.text)?.[0] ?? '';
    const end = i + name.length;
    const use = expander.use(code, i, name, end, none);
    append(out, use === undefined ? slice(code, i, end) : use.result);
    i = use?.end ?? end;
  }
  return { text: out.text, origin: out.origin };
}

const DEFINE = /^([A-Za-z_]\w*)(\(([^)]*)\))?\s*([\s\S]*)$/;

function directive(
  text: string,
  line: number,
  report: (severity: MacroDiagnostic['severity'], message: string) => void,
  sections: Section[],
  active: () => boolean,
  expander: Expander,
  define: (name: string, macro: Macro | undefined) => void,
): void {
  const [, keyword = '', rest = ''] = /^\s*([A-Za-z_]*)\s*([\s\S]*)$/.exec(text) ?? [];
  const shown = `#${text}`;
  const top = sections.at(-1);
  const condition = (expr: string): boolean => {
    const answer = evaluateCondition(expr, expander.macros, (e) => expander.expand(seg(e, 0), new Set()).text);
    if (answer.problem !== undefined && active()) report('warning', `${shown}: ${answer.problem}; PageLens takes it as false`);
    return answer.truth;
  };
  const open = (truth: boolean) => {
    const outer = active();
    sections.push({ active: outer && truth, taken: truth, outer, line, sawElse: false });
    if (outer)
      report('note', `${shown}: ${truth ? 'true, the lines up to the next #elif, #else or #endif run' : 'false, its lines are skipped'}`);
  };
  switch (keyword) {
    case 'if':
      open(condition(rest));
      return;
    case 'ifdef':
      open(expander.macros.has(rest.trim()));
      return;
    case 'ifndef':
      open(!expander.macros.has(rest.trim()));
      return;
    case 'elif':
    case 'elifdef':
    case 'elifndef':
    case 'else': {
      if (top === undefined || top.sawElse) {
        report('error', `${shown} without a matching #if`);
        return;
      }
      const truth =
        keyword === 'else'
          ? true
          : keyword === 'elif'
            ? !top.taken && condition(rest)
            : expander.macros.has(rest.trim()) === (keyword === 'elifdef');
      const runs = !top.taken && truth;
      top.active = top.outer && runs;
      top.taken ||= runs;
      top.sawElse = keyword === 'else';
      if (top.outer) report('note', `${shown}: ${runs ? 'its lines run' : 'its lines are skipped'}`);
      return;
    }
    case 'endif':
      if (sections.pop() === undefined) report('error', `${shown} without a matching #if`);
      return;
    default:
      break;
  }
  if (!active()) return;
  switch (keyword) {
    case 'include':
      report('note', `${shown} is skipped: the ACL declarations are built into PageLens`);
      return;
    case 'define': {
      const match = DEFINE.exec(rest);
      if (match === null) {
        report('error', `${shown}: a macro needs a name`);
        return;
      }
      const [, name = '', hasParams, paramText = '', body = ''] = match;
      if (hasParams === undefined) {
        define(name, { variadic: false, body: body.trim() });
        expander.macros.set(name, { variadic: false, body: body.trim() });
        return;
      }
      const params = paramText
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== '');
      const last = params.at(-1) ?? '';
      const variadic = last.endsWith('...');
      // GNU's named form `args...` is `...` whose arguments are spelled `args` in the body.
      const named = variadic && last !== '...' ? last.slice(0, -3).trim() : undefined;
      const fixed = variadic ? params.slice(0, -1) : params;
      const text = named === undefined ? body.trim() : body.trim().replace(new RegExp(`\\b${named}\\b`, 'g'), '__VA_ARGS__');
      const macro = { params: fixed, variadic, body: text };
      define(name, macro);
      expander.macros.set(name, macro);
      return;
    }
    case 'undef':
      define(rest.trim(), undefined);
      expander.macros.delete(rest.trim());
      return;
    case 'error':
      report('error', `${shown}: the code stops the build here`);
      return;
    case 'pragma':
    case 'line':
    case 'warning':
    case 'ident':
      report('note', `${shown} is skipped: it changes nothing PageLens runs`);
      return;
    default:
      report('warning', `${shown} is skipped: PageLens does not know this directive`);
  }
}
