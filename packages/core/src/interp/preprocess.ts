import { LineIndex } from './diagnostics.ts';
import { type BuildDefines, expandMacros, type MacroDiagnostic } from './macros.ts';
import { blankKernels } from './preprocess-kernels.ts';
import { skipNonCode } from './skip-non-code.ts';

/**
 * Text fixes made before @lezer/cpp sees the source, each one keeping a map back to the original
 * offsets so every line:column PageLens reports is the user's own.
 *
 * - The preprocessor's directives and macros (macros.ts).
 * - Placeholder lines of the documentation samples (`...`, `......`, `……`, optionally followed by
 *   a `//` comment) are blanked, and comment-only placeholders (`// ...`) are noted: both become
 *   visible notes on their line.
 * - `~name` becomes `~(name)` in an expression: @lezer/cpp reads `~name` as a C++ destructor name
 *   (a destructor, `~Foo()` in its class or `Foo::~Foo()`, is left as it is).
 * - GNU attributes `__attribute__((…))` are blanked: they instruct the compiler and linker.
 * - The identifier `module` reaches the parser as MODULE_STAND_IN (@lezer/cpp reads it as a keyword).
 * - A kernel launch `k<<<cfg>>>(args)` becomes the call `k(cfg, args)`; the launch is recorded so
 *   the interpreter can tell it apart from an ordinary call.
 * - A kernel's own definition (`__global__ __aicore__`, device code) is blanked, with a note
 *   (preprocess-kernels.ts).
 */

export interface Placeholder {
  /** 1-based line of the original source. */
  readonly line: number;
  readonly text: string;
  /** True when the line was code (blanked); false for a comment that only holds a placeholder. */
  readonly blanked: boolean;
}

export interface KernelLaunch {
  /** Offset in the preprocessed text where the kernel name starts. */
  readonly at: number;
  /** How many of the call's arguments came from `<<<…>>>`. */
  readonly configCount: number;
}

export interface Preprocessed {
  readonly text: string;
  /** origin[i] is the original offset of text[i]; origin[text.length] is the source length. */
  readonly origin: Int32Array;
  readonly placeholders: readonly Placeholder[];
  readonly launches: readonly KernelLaunch[];
  /** What the directives said: skipped includes, conditions taken or not, #error. */
  readonly directives: readonly MacroDiagnostic[];
}

const BARE_PLACEHOLDER = /^(?:\.{3,}|[…⋯]+)\s*;?\s*(?:\/\/.*)?$/;
const COMMENT_PLACEHOLDER = /^(?:\/\/\s*(?:\.{3,}|[…⋯]+)\s*|\/\*\s*(?:\.{3,}|[…⋯]+)\s*\*\/)$/;

function blankPlaceholders(source: string): { text: string; placeholders: Placeholder[] } {
  const placeholders: Placeholder[] = [];
  const lines = source.split('\n');
  const out = lines.map((line, index) => {
    const trimmed = line.trim();
    if (BARE_PLACEHOLDER.test(trimmed)) {
      placeholders.push({ line: index + 1, text: trimmed, blanked: true });
      // Same length, so offsets and columns stay put.
      return line.replace(/[^\s]/g, ' ');
    }
    if (COMMENT_PLACEHOLDER.test(trimmed)) placeholders.push({ line: index + 1, text: trimmed, blanked: false });
    return line;
  });
  return { text: out.join('\n'), placeholders };
}

const isIdentStart = (c: string) => /[A-Za-z_]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_]/.test(c);

/** Index of the last character at or before `from` that is code: whitespace and comments (a doc comment above a destructor) are passed over. */
function previousCode(text: string, from: number): number {
  let at = from;
  for (;;) {
    while (at >= 0 && /\s/.test(text[at] ?? '')) {
      if (text[at] === '\n') {
        // A `// …` comment ending the line above: continue from before it.
        const lineStart = text.lastIndexOf('\n', at - 1) + 1;
        const comment = text.slice(lineStart, at).indexOf('//');
        if (comment !== -1) at = lineStart + comment;
      }
      at -= 1;
    }
    if (at > 0 && text[at] === '/' && text[at - 1] === '*') {
      const open = text.lastIndexOf('/*', at - 2);
      if (open === -1) return at;
      at = open - 1;
      continue;
    }
    return at;
  }
}

/**
 * True when the `~Name` at `tilde` (its name ending at `end`) names a destructor: after `::`
 * (`Foo::~Foo()`), or starting a member declaration (after `;`, `{`, `}`, an access specifier's
 * `:` or `virtual`) and followed by `(`. In an expression `~mask` follows an operator or `(`.
 */
function isDestructorName(text: string, tilde: number, end: number): boolean {
  const before = previousCode(text, tilde - 1);
  if (text.startsWith('::', before - 1)) return true;
  let after = end;
  while (/\s/.test(text[after] ?? '')) after += 1;
  if (text[after] !== '(') return false;
  const previous = text[before] ?? ';';
  if (previous === ';' || previous === '{' || previous === '}') return true;
  if (previous === ':') return /\b(?:public|private|protected)\s*$/.test(text.slice(Math.max(0, before - 10), before));
  return /\b(?:virtual|inline)$/.test(text.slice(Math.max(0, before - 7), before + 1));
}

/**
 * `module` is an ordinary identifier in C and in C++ outside a module declaration (which PageLens
 * does not run), but @lezer/cpp reads it as the C++20 keyword everywhere, so
 * `PyObject* module = PyModule_Create(…)` would be a syntax error. It reaches the parser as this
 * stand-in (a reserved name no program may write), and ParseContext.slice gives back `module`.
 */
export const MODULE_STAND_IN = '__pagelens_module';

const NOT_A_NAME = new Set(['final', 'override', 'const', 'noexcept', 'mutable', 'try', 'else', 'do']);
const NOT_A_TYPE = new Set([
  ...['return', 'throw', 'new', 'else', 'do', 'case', 'struct', 'class', 'union', 'enum', 'namespace'],
  ...['public', 'private', 'protected', 'virtual', 'final', 'typename'],
]);

/**
 * `void* ptr_{};`, `int count{0};`, `struct adaptor cann {\n "CANN", f, g\n};`: a declarator with a
 * brace initialiser (over lines too, when no `;` stands inside at its depth), which @lezer/cpp reads
 * as a function definition; it gets ` =` before its brace (`ptr_ = {}` means the same). A type or
 * `*`/`&` must come before the name, so `struct A {};`, `class B : public A {}` and `return T{};` stay.
 */
function isBraceInitDeclarator(text: string, from: number, end: number): boolean {
  let brace = end;
  while (text[brace] === ' ' || text[brace] === '\t') brace += 1;
  if (text[brace] !== '{' || NOT_A_NAME.has(text.slice(from, end))) return false;
  const close = initializerClose(text, brace);
  if (close === undefined) return false;
  let after = close + 1;
  while (text[after] === ' ') after += 1;
  if (text[after] !== ';' && text[after] !== ',') return false;
  const before = previousCode(text, from - 1);
  const previous = text[before] ?? '';
  if (previous === '*' || previous === '&' || previous === '>') return true;
  if (!isIdentPart(previous)) return false;
  let start = before;
  while (start > 0 && isIdentPart(text[start - 1] ?? '')) start -= 1;
  return !NOT_A_TYPE.has(text.slice(start, before + 1));
}

/** Index just past the `((…))` of a GNU `__attribute__` whose name ends at `from`, or undefined. */
function attributeEnd(text: string, from: number): number | undefined {
  let i = from;
  while (/\s/.test(text[i] ?? '')) i += 1;
  if (!text.startsWith('((', i)) return undefined;
  let depth = 0;
  for (; i < text.length; i += 1) {
    if (text[i] === '(') depth += 1;
    else if (text[i] === ')') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return undefined;
}

/**
 * The `}` closing the brace at `open` when what it encloses is an initialiser list (over lines too:
 * `struct adaptor cann { "CANN", f1, f2, … };`): no `;` at its own depth, so no statement or member
 * declaration; undefined otherwise.
 */
function initializerClose(text: string, open: number): number | undefined {
  let depth = 0;
  for (let i = open; i < text.length; ) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = text[i];
    if (c === '{' || c === '(' || c === '[') depth += 1;
    else if (c === '}' || c === ')' || c === ']') {
      depth -= 1;
      if (depth === 0) return c === '}' ? i : undefined;
    } else if (c === ';') return undefined;
    i += 1;
  }
  return undefined;
}

/** Finds `>>>` closing a launch config that starts at `from`; counts its top-level arguments. */
function launchEnd(text: string, from: number): { close: number; count: number } | undefined {
  let depth = 0;
  let count = 1;
  let empty = true;
  for (let i = from; i < text.length; ) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const c = text[i] ?? '';
    if (depth === 0 && text.startsWith('>>>', i)) return { close: i, count: empty ? 0 : count };
    if (c === '(' || c === '[' || c === '{') depth += 1;
    else if (c === ')' || c === ']' || c === '}') depth -= 1;
    else if (c === ',' && depth === 0) count += 1;
    else if (c === ';' || depth < 0) return undefined;
    if (!/\s/.test(c)) empty = false;
    i += 1;
  }
  return undefined;
}

export function preprocess(source: string, defines: BuildDefines = {}): Preprocessed {
  // A UTF-8 byte-order mark (a file saved by some Windows editors, or several files joined) is no
  // character of C: a space of the same length keeps every offset.
  const blanked = blankPlaceholders(source.replaceAll('\uFEFF', ' '));
  const lines = new LineIndex(source);
  const expanded = expandMacros(blanked.text, (offset) => lines.lineOf(offset), defines);
  const { placeholders } = blanked;
  const { text, kernels } = blankKernels(expanded.text);
  const kernelNotes = kernels.map((kernel): MacroDiagnostic => {
    const from = expanded.origin[kernel.from] ?? source.length;
    const to = expanded.origin[Math.max(kernel.from, kernel.to - 1)] ?? source.length;
    const what = kernel.defined ? 'is a kernel, device code for the AI Core' : 'declares a kernel (device code)';
    const [first, last] = [lines.lineOf(from), lines.lineOf(to)];
    const where = first === last ? `line ${first}` : `lines ${first}–${last}`;
    return {
      severity: 'note',
      from,
      to,
      message: `${kernel.name} (${where}) ${what}: PageLens runs the host's code, not kernels, so it skips it; a launch of it (${kernel.name}<<<…>>>) is a not-modeled note`,
    };
  });
  const chars: string[] = [];
  const origin: number[] = [];
  const launches: KernelLaunch[] = [];
  const emit = (piece: string, at: number) => {
    const from = expanded.origin[at] ?? source.length;
    for (const ch of piece) {
      chars.push(ch);
      origin.push(from);
    }
  };
  const copy = (from: number, to: number) => {
    for (let k = from; k < to; k += 1) emit(text[k] ?? '', k);
  };
  let i = 0;
  while (i < text.length) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      copy(i, skipped);
      i = skipped;
      continue;
    }
    const c = text[i] ?? '';
    if (c === '~') {
      let j = i + 1;
      while (text[j] === ' ' || text[j] === '\t') j += 1;
      if (isIdentStart(text[j] ?? '')) {
        let end = j;
        while (isIdentPart(text[end] ?? '')) end += 1;
        if (isDestructorName(text, i, end)) {
          copy(i, end);
          i = end;
          continue;
        }
        emit('~', i);
        emit('(', j);
        copy(j, end);
        emit(')', end);
        i = end;
        continue;
      }
    }
    if (isIdentStart(c) && (i === 0 || !isIdentPart(text[i - 1] ?? ''))) {
      let end = i;
      while (isIdentPart(text[end] ?? '')) end += 1;
      let j = end;
      while (text[j] === ' ') j += 1;
      const config = text.startsWith('<<<', j) ? launchEnd(text, j + 3) : undefined;
      if (config !== undefined) {
        let k = config.close + 3;
        while (/\s/.test(text[k] ?? '')) k += 1;
        if (text[k] === '(') {
          let m = k + 1;
          while (/\s/.test(text[m] ?? '')) m += 1;
          launches.push({ at: chars.length, configCount: config.count });
          copy(i, end);
          emit('(', j);
          copy(j + 3, config.close);
          // `>>>(` joins the two argument lists; `>>>()` simply closes the call.
          if (text[m] === ')') i = m;
          else {
            if (config.count > 0) emit(', ', config.close);
            i = k + 1;
          }
          continue;
        }
      }
      const attribute = text.slice(i, end) === '__attribute__' ? attributeEnd(text, end) : undefined;
      if (attribute !== undefined) {
        // `__attribute__((weak))`, `((aligned(64)))`: GNU attributes tell the compiler and linker, not the program.
        for (let k = i; k < attribute; k += 1) emit(text[k] === '\n' ? '\n' : ' ', k);
        i = attribute;
        continue;
      }
      if (text.slice(i, end) === 'module') emit(MODULE_STAND_IN, i);
      else copy(i, end);
      if (isBraceInitDeclarator(text, i, end)) emit(' =', end);
      i = end;
      continue;
    }
    emit(c, i);
    i += 1;
  }
  origin.push(source.length);
  return {
    text: chars.join(''),
    origin: Int32Array.from(origin),
    placeholders,
    launches,
    directives: [...expanded.diagnostics, ...kernelNotes],
  };
}
