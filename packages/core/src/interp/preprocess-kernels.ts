/**
 * Ascend C kernels in the host program's text: `extern "C" __global__ __aicore__ void K(__gm__ int* p) { … }`.
 * A kernel is device code (it runs on the AI Core, with `block_idx`, `__gm__` pointers and AscendC
 * calls), so the interpreter neither parses nor runs it; a launch `K<<<…>>>(…)` of it stays the
 * not-modeled note every launch gets. The CANN runtime's samples keep their kernels in .cpp files
 * next to the host code (`example/kernel_func/*.cpp`), compiled into the same program.
 */

import { skipNonCode } from './skip-non-code.ts';

/** A kernel definition or declaration taken out of the text; offsets are those of the text given. */
export interface KernelDefinition {
  readonly name: string;
  readonly from: number;
  readonly to: number;
  readonly defined: boolean;
}

/** The qualifiers that make a function device code (either one alone is enough). */
const QUALIFIER = /(?:__global__|__aicore__)\b/y;

/** Index of the bracket closing the one at `open` (comments and literals passed over), or undefined. */
function closing(text: string, open: number): number | undefined {
  const pair: Record<string, string> = { '(': ')', '{': '}' };
  const want = pair[text[open] ?? ''];
  if (want === undefined) return undefined;
  let depth = 0;
  for (let i = open; i < text.length; ) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (text[i] === text[open]) depth += 1;
    else if (text[i] === want) {
      depth -= 1;
      if (depth === 0) return i;
    }
    i += 1;
  }
  return undefined;
}

/** Words that may stand before the qualifiers in a kernel's declaration. */
const PREFIX = /(?:\bextern\s*"C"\s*|\b(?:static|inline)\s+)*$/;

/** Where the kernel declaration whose first qualifier is at `at` starts: `extern "C"`, `static` or `inline` before it belong to it. */
function declarationStart(text: string, at: number): number {
  const before = text.slice(Math.max(0, at - 80), at);
  return at - (PREFIX.exec(before)?.[0].length ?? 0);
}

const spaces = (piece: string) => piece.replace(/[^\n]/g, ' ');

/** Offset of the next kernel qualifier outside comments and literals, at or after `from`, or undefined. */
function nextQualifier(text: string, from: number): { at: number; length: number } | undefined {
  for (let i = from; i < text.length; ) {
    const skipped = skipNonCode(text, i);
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    if (text[i] === '_' && (i === 0 || !/\w/.test(text[i - 1] ?? ''))) {
      QUALIFIER.lastIndex = i;
      const found = QUALIFIER.exec(text);
      if (found !== null) return { at: i, length: found[0].length };
    }
    i += 1;
  }
  return undefined;
}

/** The end of the kernel whose qualifier is at `at` (just past its body or its `;`), its name and whether it has a body. */
function kernelAt(text: string, at: number): { name: string; end: number; defined: boolean } | undefined {
  const paren = text.indexOf('(', at);
  const params = paren === -1 ? undefined : closing(text, paren);
  const name = paren === -1 ? undefined : /([A-Za-z_]\w*)\s*$/.exec(text.slice(at, paren))?.[1];
  if (params === undefined || name === undefined) return undefined;
  let after = params + 1;
  while (/\s/.test(text[after] ?? '')) after += 1;
  if (text[after] === ';') return { name, end: after + 1, defined: false };
  const body = text[after] === '{' ? closing(text, after) : undefined;
  return body === undefined ? undefined : { name, end: body + 1, defined: true };
}

/**
 * Blanks every kernel definition and declaration (same length, line breaks kept, so offsets hold)
 * and says which it took out.
 */
export function blankKernels(text: string): { text: string; kernels: KernelDefinition[] } {
  const kernels: KernelDefinition[] = [];
  let out = text;
  let from = 0;
  for (let found = nextQualifier(out, from); found !== undefined; found = nextQualifier(out, from)) {
    const kernel = kernelAt(out, found.at);
    if (kernel === undefined) {
      from = found.at + found.length;
      continue;
    }
    const start = declarationStart(out, found.at);
    out = out.slice(0, start) + spaces(out.slice(start, kernel.end)) + out.slice(kernel.end);
    kernels.push({ name: kernel.name, from: start, to: kernel.end, defined: kernel.defined });
    from = kernel.end;
  }
  return { text: out, kernels };
}
