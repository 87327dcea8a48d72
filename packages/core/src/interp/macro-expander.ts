/**
 * Macro expansion over text that carries the source offset of each character (macros.ts runs
 * the directives and feeds this the code between them).
 */

export interface Macro {
  readonly params?: readonly string[];
  readonly variadic: boolean;
  readonly body: string;
}

/** Text with the source offset of each character. */
export interface Seg {
  text: string;
  origin: number[];
}

/** What the code is compiled as: C++ (the samples are .cpp files). A header-only macro stays undefined. */
export const PREDEFINED: ReadonlyMap<string, Macro> = new Map([
  ['__cplusplus', { variadic: false, body: '201703L' }],
  ['__FILE__', { variadic: false, body: '"main.cpp"' }],
]);

export const IDENT = /[A-Za-z_]\w*/y;
export const isIdentStart = (c: string | undefined) => c !== undefined && /[A-Za-z_]/.test(c);
export const isIdentPart = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** Index just past the comment or literal starting at `i`, or `i`. */
export function skipNonCode(text: string, i: number): number {
  const c = text[i];
  const next = text[i + 1];
  if (c === '/' && next === '/') {
    const end = text.indexOf('\n', i);
    return end === -1 ? text.length : end;
  }
  if (c === '/' && next === '*') {
    const end = text.indexOf('*/', i + 2);
    return end === -1 ? text.length : end + 2;
  }
  if (c === '"' || c === "'") {
    // A digit separator (1'000) is not a character literal.
    if (c === "'" && isIdentPart(text[i - 1])) return i;
    let j = i + 1;
    while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  return i;
}

export const seg = (text: string, at: number): Seg => ({ text, origin: Array.from({ length: text.length }, () => at) });
export const slice = (s: Seg, from: number, to: number): Seg => ({ text: s.text.slice(from, to), origin: s.origin.slice(from, to) });
export function append(out: Seg, piece: Seg): void {
  out.text += piece.text;
  for (const o of piece.origin) out.origin.push(o);
}
function trim(s: Seg): Seg {
  const start = s.text.length - s.text.trimStart().length;
  const end = s.text.trimEnd().length;
  return start >= end ? { text: '', origin: [] } : slice(s, start, end);
}

/** The arguments of an invocation whose `(` is at `open`; undefined when the list does not close. */
function collectArgs(s: Seg, open: number): { args: Seg[]; end: number } | undefined {
  const args: Seg[] = [];
  let depth = 0;
  let start = open + 1;
  for (let i = open + 1; i < s.text.length; ) {
    const skipped = skipNonCode(s.text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = s.text[i];
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth -= 1;
    else if (c === ')') {
      args.push(trim(slice(s, start, i)));
      return { args, end: i + 1 };
    } else if (c === ',' && depth === 0) {
      args.push(trim(slice(s, start, i)));
      start = i + 1;
    }
    i += 1;
  }
  return undefined;
}

type BodyToken = { readonly t: 'ws' | 'ident' | 'other' | 'hash' | 'paste'; readonly text: string };

function bodyTokens(body: string): BodyToken[] {
  const out: BodyToken[] = [];
  for (let i = 0; i < body.length; ) {
    const c = body[i] ?? '';
    if (/\s/.test(c)) {
      let j = i;
      while (/\s/.test(body[j] ?? 'x')) j += 1;
      out.push({ t: 'ws', text: body.slice(i, j) });
      i = j;
    } else if (isIdentStart(c)) {
      IDENT.lastIndex = i;
      const name = IDENT.exec(body)?.[0] ?? c;
      out.push({ t: 'ident', text: name });
      i += name.length;
    } else if (body.startsWith('##', i)) {
      out.push({ t: 'paste', text: '##' });
      i += 2;
    } else if (c === '#') {
      out.push({ t: 'hash', text: '#' });
      i += 1;
    } else {
      const skipped = skipNonCode(body, i);
      const end = skipped === i ? i + 1 : skipped;
      out.push({ t: 'other', text: body.slice(i, end) });
      i = end;
    }
  }
  return out;
}

const stringize = (arg: Seg, at: number): Seg => seg(`"${arg.text.replace(/\s+/g, ' ').replace(/[\\"]/g, (ch) => `\\${ch}`)}"`, at);

/** Characters all macro uses of one source may produce: beyond, a macro that doubles itself would freeze the page. */
export const EXPANSION_LIMIT = 500_000;

/** Thrown when the expansions pass EXPANSION_LIMIT; macros.ts reports it on the use's line. */
export class ExpansionOverflow extends Error {
  readonly at: number;
  constructor(at: number) {
    super('macro expansion too large');
    this.at = at;
  }
}

export class Expander {
  readonly macros = new Map<string, Macro>(PREDEFINED);
  readonly #lineOf: (offset: number) => number;
  #produced = 0;

  constructor(lineOf: (offset: number) => number) {
    this.#lineOf = lineOf;
  }

  /** Expands every macro use in `s`; names in `disabled` are being expanded already and stay as they are. */
  expand(s: Seg, disabled: ReadonlySet<string>): Seg {
    const out: Seg = { text: '', origin: [] };
    let i = 0;
    while (i < s.text.length) {
      const skipped = skipNonCode(s.text, i);
      if (skipped !== i) {
        append(out, slice(s, i, skipped));
        i = skipped;
        continue;
      }
      const c = s.text[i];
      if (!isIdentStart(c) || isIdentPart(s.text[i - 1])) {
        append(out, slice(s, i, i + 1));
        i += 1;
        continue;
      }
      IDENT.lastIndex = i;
      const name = IDENT.exec(s.text)?.[0] ?? '';
      const end = i + name.length;
      const use = this.use(s, i, name, end, disabled);
      if (use === undefined) append(out, slice(s, i, end));
      else append(out, use.result);
      i = use?.end ?? end;
    }
    return out;
  }

  /** The expansion of the identifier `name` at `at` in `s`, or undefined when it is no macro use. */
  use(s: Seg, at: number, name: string, end: number, disabled: ReadonlySet<string>): { result: Seg; end: number } | undefined {
    const where = s.origin[at] ?? 0;
    if (name === '__LINE__') return { result: seg(String(this.#lineOf(where)), where), end };
    const macro = disabled.has(name) ? undefined : this.macros.get(name);
    if (macro === undefined) return undefined;
    this.#produced += macro.body.length;
    if (this.#produced > EXPANSION_LIMIT) throw new ExpansionOverflow(where);
    const inner = new Set(disabled).add(name);
    if (macro.params === undefined) return { result: this.expand(seg(macro.body, where), inner), end };
    let open = end;
    while (open < s.text.length && /\s/.test(s.text[open] ?? '')) open += 1;
    if (s.text[open] !== '(') return undefined;
    const call = collectArgs(s, open);
    if (call === undefined) return undefined;
    const args = call.args.length === 1 && call.args[0]?.text === '' && macro.params.length === 0 && !macro.variadic ? [] : call.args;
    return { result: this.expand(this.substitute(macro, args, where, disabled), inner), end: call.end };
  }

  substitute(macro: Macro, args: readonly Seg[], at: number, disabled: ReadonlySet<string>): Seg {
    const params = macro.params ?? [];
    const argOf = (name: string): Seg | undefined => {
      if (name === '__VA_ARGS__' && macro.variadic) {
        const rest = args.slice(params.length);
        const joined: Seg = { text: '', origin: [] };
        rest.forEach((arg, index) => {
          if (index > 0) append(joined, seg(', ', arg.origin[0] ?? at));
          append(joined, arg);
        });
        return joined;
      }
      const index = params.indexOf(name);
      return index === -1 ? undefined : (args[index] ?? { text: '', origin: [] });
    };
    const tokens = bodyTokens(macro.body);
    const nextSolid = (from: number) => {
      let j = from;
      while (tokens[j]?.t === 'ws') j += 1;
      return j;
    };
    const pieces: Seg[] = [];
    let pasting = false;
    for (let k = 0; k < tokens.length; k += 1) {
      const token = tokens[k];
      if (token === undefined) continue;
      if (token.t === 'ws') {
        if (!pasting) pieces.push(seg(' ', at));
        continue;
      }
      if (token.t === 'paste') {
        while (pieces.at(-1)?.text === ' ') pieces.pop();
        pasting = true;
        continue;
      }
      if (token.t === 'hash' && macro.params !== undefined) {
        const target = nextSolid(k + 1);
        const arg = tokens[target]?.t === 'ident' ? argOf(tokens[target]?.text ?? '') : undefined;
        if (arg !== undefined) {
          pieces.push(stringize(arg, at));
          k = target;
          pasting = false;
          continue;
        }
      }
      const arg = token.t === 'ident' ? argOf(token.text) : undefined;
      if (arg === undefined) pieces.push(seg(token.text, at));
      else {
        const pasteOperand = pasting || tokens[nextSolid(k + 1)]?.t === 'paste';
        // GNU: `, ## __VA_ARGS__` drops the comma when there are no variadic arguments.
        if (pasting && token.text === '__VA_ARGS__' && arg.text === '' && pieces.at(-1)?.text === ',') pieces.pop();
        pieces.push(pasteOperand ? arg : this.expand(arg, disabled));
      }
      pasting = false;
    }
    const out: Seg = { text: '', origin: [] };
    for (const piece of pieces) append(out, piece);
    return out;
  }
}
