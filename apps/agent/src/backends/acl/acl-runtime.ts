import { type AclArgs, type AclFunctionName, type AclResult, AclRuntimeBase } from '@pagelens/core';
import type { CallRunner } from './call-runner.ts';

/**
 * `AclRuntime` over the real ACL library: every call is handed to the CallRunner, which calls the
 * library through koffi (its marshalling table) and records what the runtime did.
 */
export class AclFfiRuntime extends AclRuntimeBase {
  readonly pid: number;
  readonly #runner: CallRunner;

  constructor(pid: number, runner: CallRunner) {
    super();
    this.pid = pid;
    this.#runner = runner;
  }

  override call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
    return this.#runner.call(this.pid, fn, args);
  }
}
