import {
  ACL_FUNCTIONS,
  type AclArgs,
  type AclFunctionName,
  type AclResult,
  type AclRuntime,
  type CallAnswer,
  isHex,
  runtimeFrom,
  type ValueType,
  type WireArgs,
} from '@pagelens/core';

/** The agent connection's call (the app's `AgentClient.call`), as the playground's runtime uses it. */
export type AgentCall = <F extends AclFunctionName>(fn: F, args: WireArgs<F>, process?: number) => Promise<CallAnswer>;

/**
 * The agent refused a call outside ACL's codes (lost connection, quota, rate limit, a viewer
 * calling). It is thrown, not returned: the interpreter turns a thrown runtime error into an
 * `internal` error on the call's line ("aclrtMalloc: the runtime failed: <message>") and stops,
 * because the C code has no return code it could check for it. ACL failures are data and never
 * thrown.
 */
export class AgentCallError extends Error {
  readonly fn: AclFunctionName;

  constructor(fn: AclFunctionName, message: string) {
    super(message);
    this.name = 'AgentCallError';
    this.fn = fn;
  }
}

export interface AgentRuntimeOptions {
  readonly call: AgentCall;
  /** The session's process to call in (0, the default, is the session's own). */
  readonly process?: number;
  /** Told of every answered call, in order (the playground maps calls to seqs with it). */
  readonly onOutcome?: (fn: AclFunctionName, outcome: CallAnswer) => void;
  /** The agent's --max-calls-per-sec (0 = no limit): calls wait rather than being refused as rate-limited. */
  readonly callsPerSecond?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Whether an out-value has the wire type its parameter declares (anything else is dropped, as C would leave it unwritten). */
function fits(value: unknown, type: ValueType): boolean {
  switch (type.t) {
    case 'int':
    case 'uint':
    case 'size':
    case 'u64':
    case 'enum':
    case 'flags':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'index':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= -1;
    case 'float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'ptr':
    case 'handle':
      return typeof value === 'string' && isHex(value);
    case 'string':
      return value === null || typeof value === 'string';
    case 'charBuffer':
      return typeof value === 'string';
    case 'struct':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'structArray':
    case 'list':
      return Array.isArray(value);
  }
}

function isResultOf<F extends AclFunctionName>(fn: F, value: Record<string, unknown>): value is AclResult<F> {
  if (typeof value.ret !== 'number') return false;
  if (value.message !== undefined && typeof value.message !== 'string') return false;
  return ACL_FUNCTIONS[fn].params.every((param) => param.dir === 'in' || !(param.name in value) || fits(value[param.name], param.value));
}

/**
 * The agent's answer as an `AclResult`: `ret`, `message`, and the function's out-parameters taken
 * from `out` by their C names (other fields, or fields of the wrong type, are dropped). Throws
 * `AgentCallError` when the agent answered without an ACL code.
 */
export function toAclResult<F extends AclFunctionName>(fn: F, outcome: CallAnswer): AclResult<F> {
  if (outcome.ret === undefined) throw new AgentCallError(fn, outcome.message ?? 'the agent refused the call without saying why');
  const result: Record<string, unknown> = { ret: outcome.ret };
  if (outcome.message !== undefined) result.message = outcome.message;
  for (const param of ACL_FUNCTIONS[fn].params) {
    if (param.dir !== 'out' || outcome.out === undefined || !Object.hasOwn(outcome.out, param.name)) continue;
    const value = outcome.out[param.name];
    if (fits(value, param.value)) result[param.name] = value;
  }
  if (!isResultOf(fn, result)) throw new AgentCallError(fn, `the agent's answer to ${fn} does not match the catalogue`);
  return result;
}

/**
 * A token bucket like the agent's own (capacity = one second of calls), so a loop in the
 * playground waits for its turn instead of being refused with `rate-limited`.
 */
export function createPacer(callsPerSecond: number, now: () => number, sleep: (ms: number) => Promise<void>): () => Promise<void> {
  let tokens = callsPerSecond;
  let last = now();
  return async () => {
    if (callsPerSecond <= 0) return;
    for (;;) {
      const time = now();
      tokens = Math.min(callsPerSecond, tokens + ((time - last) / 1000) * callsPerSecond);
      last = time;
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      await sleep(Math.ceil(((1 - tokens) / callsPerSecond) * 1000));
    }
  };
}

/**
 * An `AclRuntime` whose every function is a call through the agent connection: the playground's
 * code then runs wherever the agent runs (simulator or real device), and every call lands in the
 * replica like a call from the actions panel, so all views follow it. Arguments are passed as the
 * interpreter built them (the wire uses the same conventions as `AclRuntime`).
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AclRuntime {
  const pace = createPacer(
    options.callsPerSecond ?? 0,
    options.now ?? (() => Date.now()),
    options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
  );
  return runtimeFrom(async <F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>> => {
    await pace();
    const outcome = await options.call(fn, args, options.process);
    const result = toAclResult(fn, outcome);
    options.onOutcome?.(fn, outcome);
    return result;
  });
}
