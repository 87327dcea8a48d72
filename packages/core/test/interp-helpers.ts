import { compile } from '../src/interp/compile.ts';
import { Execution, type ExecutionOptions } from '../src/interp/execution.ts';
import type { InputDecl } from '../src/interp/inputs.ts';
import type { MemoryEvent } from '../src/model/events.ts';
import type { DeviceProfile } from '../src/profiles/profile.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';

export interface Harness {
  readonly host: SimHost;
  readonly rt: SimRuntime;
  readonly ex: Execution;
  readonly events: MemoryEvent[];
}

export interface HarnessOptions extends Omit<ExecutionOptions, 'inputs'> {
  readonly inputs?: readonly InputDecl[];
  /** `-D` flags of the build (CompileOptions.defines). */
  readonly defines?: Readonly<Record<string, string>>;
  readonly host?: SimHost;
  readonly devices?: readonly DeviceProfile[];
}

/** Compiles `code` (failing the test on any compile error) and prepares an execution on a fresh simulated host. */
export function harness(code: string, options: HarnessOptions = {}): Harness {
  const host = options.host ?? new SimHost(options.devices === undefined ? {} : { devices: options.devices });
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  const compiled = compile(code, {
    inputs: (options.inputs ?? []).map((i) => i.name),
    ...(options.entry === undefined ? {} : { entry: options.entry }),
    ...(options.defines === undefined ? {} : { defines: options.defines }),
  });
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`compile errors: ${errors.map((d) => `${d.line}:${d.column} ${d.message}`).join('; ')}`);
  const ex = new Execution(compiled.program, rt, options);
  return { host, rt, ex, events };
}

/** Runs `code` to the end; fails the test unless it finishes. */
export async function runToEnd(code: string, options: HarnessOptions = {}): Promise<Harness> {
  const h = harness(code, options);
  const outcome = await h.ex.run();
  if (outcome.state !== 'finished') throw new Error(`did not finish: ${outcome.state} ${outcome.error?.message ?? ''}`);
  return h;
}

/** 1-based number of the first line of `code` that contains `needle`. */
export function lineOf(code: string, needle: string, from = 1): number {
  const lines = code.split('\n');
  const index = lines.findIndex((line, i) => i >= from - 1 && line.includes(needle));
  if (index === -1) throw new Error(`"${needle}" is not in the code`);
  return index + 1;
}

/** The display text of a variable in the current view. */
export function shown(ex: Execution, name: string): string | undefined {
  return ex.variables().find((v) => v.name === name)?.value;
}
