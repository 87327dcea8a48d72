import type { Program } from './ast.ts';
import { checkProgram } from './check.ts';
import { compile, resolveEntry } from './compile.ts';
import type { Diagnostic } from './diagnostics.ts';
import type { ExecError, ExecErrorKind } from './exec-errors.ts';
import { type InputDecl, inputType, inputValue } from './inputs.ts';
import type { Scope } from './machine.ts';
import type { Marks } from './marks.ts';

export interface PrepareOptions {
  readonly inputs?: readonly InputDecl[];
  readonly setup?: string;
  readonly entry?: string;
}

function fromDiagnostic(d: Diagnostic, prefix: string, inSetup: boolean): ExecError {
  const kind: ExecErrorKind =
    d.kind === 'undeclared' ? 'undeclared' : d.kind === 'syntax' || d.kind === 'unsupported' ? 'unsupported' : 'type';
  const base = { kind, message: `${prefix}${d.message}`, line: d.line, column: d.column, ...(inSetup ? { inSetup } : {}) };
  return d.name === undefined ? base : { ...base, name: d.name };
}

/**
 * Everything checked before an execution starts: the program compiled cleanly, the inputs parse
 * (they are bound into `inputs`), every name is declared or an input, there is an entry, and the
 * setup compiles (its notes go to `setupMarks`). Returns the first problem.
 */
export function prepare(program: Program, options: PrepareOptions, inputs: Scope, setupMarks: Marks): ExecError | undefined {
  const broken = program.errors[0];
  if (broken !== undefined) return fromDiagnostic(broken, '', false);
  const decls = options.inputs ?? [];
  for (const input of decls) {
    const parsed = inputValue(input);
    const type = inputType(input.ctype);
    if (!parsed.ok || type === undefined) {
      return {
        kind: 'input',
        message: parsed.ok ? `input ${input.name}: unknown type ${input.ctype}` : parsed.message,
        line: 0,
        column: 0,
      };
    }
    if (inputs.vars.has(input.name)) return { kind: 'input', message: `the input ${input.name} is declared twice`, line: 0, column: 0 };
    inputs.vars.set(input.name, { name: input.name, cell: { type, value: parsed.value, init: true }, isConst: false, kind: 'input' });
  }
  const names = decls.map((i) => i.name);
  const unchecked = checkProgram(program, names)[0];
  if (unchecked !== undefined) return fromDiagnostic(unchecked, '', false);
  const entry = resolveEntry(program, options.entry);
  if (entry.kind === 'error') return { kind: 'entry', message: entry.message, line: 0, column: 0 };
  if (options.setup === undefined) return undefined;
  const setup = compile(options.setup, { inputs: names });
  setupMarks.addDiagnostics(setup.diagnostics);
  const first = setup.diagnostics.find((d) => d.severity === 'error');
  return first === undefined ? undefined : fromDiagnostic(first, 'setup: ', true);
}
