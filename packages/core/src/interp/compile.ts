import type { FunctionDef, Program } from './ast.ts';
import { checkProgram } from './check.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { BuildDefines } from './macros.ts';
import { parseProgram } from './parse.ts';

export interface CompileOptions {
  /** Names the code may use without declaring them: the scenario's inputs. */
  readonly inputs?: readonly string[];
  /** The function to run; default `main`, else the only function, else the top-level statements. */
  readonly entry?: string;
  /** Macros the program's build defines on its command line (`-DUSE_NPU`, `-DNDEBUG=1`): defined before the first line. */
  readonly defines?: BuildDefines;
}

export interface CompileResult {
  /** False when any diagnostic is an error: the program must not run. */
  readonly ok: boolean;
  /** Present even when not ok, so a UI can list its functions or placeholders. */
  readonly program: Program;
  /** Errors, warnings and notes in source order. */
  readonly diagnostics: readonly Diagnostic[];
}

export type EntryChoice =
  | { readonly kind: 'script' }
  | { readonly kind: 'function'; readonly fn: FunctionDef }
  | { readonly kind: 'error'; readonly message: string };

/** Which code runs: the chosen function, `main`, the only function, or the top-level statements of a fragment. */
export function resolveEntry(program: Program, entry: string | undefined): EntryChoice {
  const names = [...program.functions.keys()];
  if (entry !== undefined) {
    const fn = program.functions.get(entry);
    if (fn !== undefined) return { kind: 'function', fn };
    return {
      kind: 'error',
      message: `there is no function "${entry}" to run; the code defines ${names.length === 0 ? 'no functions' : names.join(', ')}`,
    };
  }
  if (program.isScript || names.length === 0) return { kind: 'script' };
  const fn = program.defaultEntry === undefined ? undefined : program.functions.get(program.defaultEntry);
  if (fn !== undefined) return { kind: 'function', fn };
  return { kind: 'error', message: `the code defines ${names.join(', ')} and no main: choose which one to run with the entry option` };
}

/** Parses C source with @lezer/cpp and checks it; nothing runs. */
export function compile(source: string, options: CompileOptions = {}): CompileResult {
  const { program, diagnostics } = parseProgram(source, options.defines);
  const all: Diagnostic[] = [...diagnostics, ...program.notes];
  if (diagnostics.length === 0) {
    all.push(...checkProgram(program, options.inputs ?? []));
    const entry = resolveEntry(program, options.entry);
    if (entry.kind === 'error') all.push({ severity: 'error', kind: 'entry', message: entry.message, line: 1, column: 1, endLine: 1 });
  }
  all.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ok: !all.some((d) => d.severity === 'error'), program, diagnostics: all };
}
