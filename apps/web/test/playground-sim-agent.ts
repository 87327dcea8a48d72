import { ASCEND_910B2, type CallAnswer, isAclFunctionName, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import type { AgentCall } from '../src/model/playground/agent-runtime.ts';

/**
 * An agent double for playground tests: `call` runs the function on a simulator and answers the
 * way the web client does (ret, out-fields, the seqs of the events it caused), so the adapter and
 * the controller are exercised end to end without a socket.
 */
export function simAgent() {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const runtime = new SimRuntime(host);
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const calls: { fn: string; args: Readonly<Record<string, unknown>>; process: number | undefined }[] = [];
  const call: AgentCall = async (fn, args, process) => {
    calls.push({ fn, args, process });
    if (!isAclFunctionName(fn)) return { ok: false, fn, message: `unknown function ${fn}`, events: [] };
    const method: unknown = Reflect.get(runtime, fn);
    if (typeof method !== 'function') return { ok: false, fn, message: `no method ${fn}`, events: [] };
    const before = events.length;
    const answer: unknown = await method.call(runtime, args);
    if (answer === null || typeof answer !== 'object') throw new Error(`${fn} answered ${String(answer)}`);
    const out: Record<string, unknown> = {};
    let ret = -1;
    let message: string | undefined;
    for (const [key, value] of Object.entries(answer)) {
      if (key === 'ret' && typeof value === 'number') ret = value;
      else if (key === 'message' && typeof value === 'string') message = value;
      else out[key] = value;
    }
    const outcome: CallAnswer = {
      ok: ret === 0,
      fn,
      ret,
      out,
      events: events.slice(before).map((event) => event.seq),
      ...(message === undefined ? {} : { message }),
    };
    return outcome;
  };
  return { host, runtime, events, calls, call, lastSeq: () => host.state.seq };
}
