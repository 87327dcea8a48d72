import { errorName } from '../acl/errors.ts';
import type { AclFunctionName } from '../acl/functions.ts';
import { type AclArgs, type AclResult, AclRuntimeBase } from '../acl/runtime.ts';
import type { CallEvent, CodedText, Reason } from '../model/events.ts';
import type { ProcessState } from '../model/state.ts';
import { text, withText } from '../texts/table.ts';
import type { Mutable, Op, SimContext } from './context.ts';
import { SIM_OPS } from './ops.ts';
import type { SimHost } from './sim-host.ts';

/** Copies call arguments for the log, so a caller mutating its struct later cannot rewrite history. */
function snapshotArgs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snapshotArgs);
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = snapshotArgs(item);
    return copy;
  }
  return value;
}

function record(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy: Record<string, unknown> = {};
  for (const key in args) {
    // `args[key]` inside the for-in, not Reflect.get: V8 then reads the field by its enum-cache index.
    const item = args[key];
    // Numbers and strings are immutable: only structs and arrays need a deep copy.
    copy[key] = item !== null && typeof item === 'object' ? snapshotArgs(item) : item;
  }
  return copy;
}

/** A call event with the rarer fields (injected failures, failures with reasons), added one by one in their place. */
function rareCallEvent(
  seq: number,
  t: number,
  pid: number,
  fn: string,
  args: Readonly<Record<string, unknown>>,
  ret: number,
  durationNs: number,
  out: Readonly<Record<string, unknown>> | undefined,
  message: string | undefined,
  messageCode: CodedText | undefined,
  reasons: readonly Reason[] | undefined,
  injected: boolean,
): CallEvent {
  const event: Mutable<CallEvent> = { kind: 'call', seq, t, provenance: 'simulated', pid, fn, args, ret, durationNs };
  if (out !== undefined) event.out = record(out);
  if (message !== undefined) event.message = message;
  if (messageCode !== undefined) event.messageCode = messageCode;
  if (reasons !== undefined) event.reasons = reasons;
  if (injected) event.injected = true;
  return event;
}

/**
 * One simulated process: `AclRuntime` over a `SimHost`. Each call is checked against the
 * catalogue, run by its operation, and logged as a `call` event followed by the state changes it
 * made. A call that fails changes nothing.
 */
export class SimRuntime extends AclRuntimeBase {
  readonly host: SimHost;
  readonly pid: number;
  readonly #context: SimContext;

  constructor(host: SimHost, name = 'app') {
    super();
    this.host = host;
    this.pid = host.addProcess(name);
    const process: ProcessState | undefined = host.state.processes.get(this.pid);
    const space = host.spaces.get(this.pid);
    if (process === undefined || space === undefined) throw new Error(`process ${this.pid} was not registered`);
    this.#context = { host, state: host.state, pid: this.pid, process, space, emit: (body) => host.emit(body) };
  }

  #call<F extends AclFunctionName>(fn: F, args: AclArgs<F>, op: Op<F>): Promise<AclResult<F>> {
    const host = this.host;
    const seq = host.beginCall();
    const before = host.state.time;
    const injected = host.takeFailure(fn);
    // Arguments were validated where they entered (the wire, the interpreter); typed callers are trusted.
    const result =
      injected !== undefined
        ? injected.message !== undefined
          ? { ret: injected.ret, message: injected.message }
          : { ret: injected.ret, ...withText(text('injected', { name: errorName(injected.ret) })) }
        : op(this.#context, args);
    const { ret, message, messageCode, reasons, out } = result;
    const t = host.state.time;
    const recorded = record(args);
    const durationNs = t - before;
    // The common shapes are whole literals (fields in the order the log has always had): an optional
    // field added after a literal moves the object's fields out of line, which every call paid for.
    // A success's reasons travel with the state change they explain; a failure has only the call to carry them.
    const event: CallEvent =
      injected !== undefined ||
      (reasons !== undefined && ret !== 0) ||
      (out !== undefined && message !== undefined) ||
      (message !== undefined && messageCode === undefined)
        ? rareCallEvent(
            seq,
            t,
            this.pid,
            fn,
            recorded,
            ret,
            durationNs,
            out,
            message,
            messageCode,
            ret !== 0 ? reasons : undefined,
            injected !== undefined,
          )
        : out !== undefined
          ? { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs, out: record(out) }
          : message !== undefined && messageCode !== undefined
            ? { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs, message, messageCode }
            : { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs };
    host.endCall(event);
    if (ret !== 0 && message !== undefined) this.#context.space.lastError = message;
    const answer: AclResult<F> = Object.assign(
      { ret },
      out,
      message === undefined ? undefined : messageCode === undefined ? { message } : { message, messageCode },
    );
    return Promise.resolve(answer);
  }

  /** Runs `fn` by its operation in the simulator's op table. */
  override call<F extends AclFunctionName>(fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
    const op: Op<F> = SIM_OPS[fn];
    return this.#call(fn, args, op);
  }
}
