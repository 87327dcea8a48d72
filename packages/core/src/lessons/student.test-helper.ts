import { aclrtMemMallocPolicy } from '../acl/enums.ts';
import { compile } from '../interp/compile.ts';
import { Execution } from '../interp/execution.ts';
import type { MemoryEvent } from '../model/events.ts';
import type { MallocFn } from '../model/malloc-policy.ts';
import { scenarioById } from '../scenarios/index.ts';
import { SimHost } from '../sim/sim-host.ts';
import { SimRuntime } from '../sim/sim-runtime.ts';
import type { LessonWorld } from './lesson.ts';

/**
 * A scripted student on a fresh simulated host: the Actions panel's calls through one process, the
 * playground's scenarios (run or stepped to a line) through another, as in the app.
 */
export class Student {
  readonly host = new SimHost();
  readonly events: MemoryEvent[] = [];
  readonly #actions = new SimRuntime(this.host, 'actions');
  #ready = false;
  #scenario: { readonly id: string; readonly code: string; readonly ex: Execution } | undefined;

  constructor() {
    this.host.subscribe((batch) => this.events.push(...batch));
  }

  get world(): LessonWorld {
    return { state: this.host.state, events: this.events };
  }

  /** Actions ▸ Malloc: `count` calls of `fn` with a policy by its short name ("HUGE_FIRST"). */
  async allocate(size: number, policy: string, count = 1, fn: MallocFn = 'aclrtMalloc'): Promise<number[]> {
    await this.#device();
    const value = aclrtMemMallocPolicy.valueOf(`ACL_MEM_MALLOC_${policy}`);
    if (value === undefined) throw new Error(`no policy ${policy}`);
    const rets: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const result =
        fn === 'aclrtMalloc'
          ? await this.#actions.aclrtMalloc({ size, policy: value })
          : await this.#actions.aclrtMallocAlign32({ size, policy: value });
      rets.push(result.ret);
    }
    return rets;
  }

  /** The playground: runs scenario `id` until a statement on the first line containing `until` is next (or to the end). */
  async play(id: string, until?: string): Promise<void> {
    const running = this.#scenario?.id === id ? this.#scenario : this.#open(id);
    const line = until === undefined ? undefined : running.code.split('\n').findIndex((text) => text.includes(until)) + 1;
    if (line === 0) throw new Error(`no line of ${id} contains ${until}`);
    const outcome = line === undefined ? await running.ex.run() : await running.ex.runToLine(line);
    if (outcome.state === 'error') throw new Error(`${id} failed: ${outcome.error?.message ?? ''}`);
    // A line behind the current one would run the scenario to its end: a script mistake, not a move.
    if (until !== undefined && outcome.state !== 'paused') throw new Error(`${id} ran past "${until}" to ${outcome.state}`);
    if (outcome.state === 'finished') this.#scenario = undefined;
  }

  #open(id: string): { id: string; code: string; ex: Execution } {
    const scenario = scenarioById(id);
    if (scenario === undefined) throw new Error(`no scenario ${id}`);
    const inputs = scenario.inputs.map((input) => input.name);
    const compiled = compile(scenario.code, { inputs, ...(scenario.entry === undefined ? {} : { entry: scenario.entry }) });
    const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
    if (errors.length > 0) throw new Error(`${id}: ${errors.map((d) => d.message).join('; ')}`);
    const ex = new Execution(compiled.program, new SimRuntime(this.host, `playground-${id}`), {
      inputs: scenario.inputs,
      setup: scenario.setup,
      ...(scenario.entry === undefined ? {} : { entry: scenario.entry }),
    });
    this.#scenario = { id, code: scenario.code, ex };
    return this.#scenario;
  }

  async #device(): Promise<void> {
    if (this.#ready) return;
    await this.#actions.aclInit({ configPath: null });
    await this.#actions.aclrtSetDevice({ deviceId: 0 });
    this.#ready = true;
  }
}
