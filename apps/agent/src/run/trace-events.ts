import {
  ACL_FUNCTIONS,
  type AclArgs,
  type AclFunctionName,
  type AclOut,
  type CallEvent,
  DEFAULT_PROFILE,
  type Hex,
  type ParamSpec,
  type Reason,
  type SimHost,
} from '@pagelens/core';
import { recordEffects } from '../backends/acl/effects.ts';
import type { EffectContext } from '../backends/acl/effects-context.ts';
import { EXACT_LIMIT } from '../backends/acl/pointers.ts';
import { structWords } from './native/trace-words.ts';
import { changesCurrent, ThreadCurrents } from './thread-current.ts';
import type { TracedCall } from './trace-record.ts';

/*
 * Trace mode's observed calls as model events of the traced process. The state changes come from
 * the acl backend's effects (backends/acl/effects.ts), the same path that turns the agent's own
 * observed ACL calls into events: allocations without frame placement, VMM reservations and maps,
 * host buffers, streams and events, each stamped "observed" (or "modeled" where the effect says
 * so). The traced program's runtime is real (on an Ascend host) or the C test double (here).
 */

const MAX_EVENT_MESSAGE = 2000;

interface Decoded {
  readonly args: Record<string, unknown>;
  readonly out: Record<string, unknown>;
  /** What a trace record cannot carry for this call (struct arrays, lists, strings). */
  readonly missing: string[];
  /** Counts of 2^53 or more, as "size = 0x…": exact in the call event, beyond what the model's state can hold. */
  readonly wide: string[];
}

const hexWord = (word: bigint): Hex => `0x${word.toString(16)}`;
const signed32 = (word: bigint): number => Number(BigInt.asIntN(32, word));
const unsigned32 = (word: bigint): number => Number(BigInt.asUintN(32, word));

function f32(word: bigint): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, Number(BigInt.asUintN(32, word)));
  return view.getFloat32(0);
}

/**
 * A 64-bit count (a size, a u64, a struct field) as an exact number, or at 2^53 and more as "0x…"
 * text holding all its bits, as results hold pointers (backends/acl/pointers.ts): never rounded.
 */
function exactCount(value: bigint): number | Hex {
  return value < EXACT_LIMIT && value > -EXACT_LIMIT ? Number(value) : hexWord(BigInt.asUintN(64, value));
}

const isWide = (value: unknown): boolean => typeof value === 'string' && value.startsWith('0x');

/** One word as the catalogue type of its parameter; undefined for what a word cannot hold. */
function scalar(param: ParamSpec, word: bigint): unknown {
  switch (param.value.t) {
    case 'int':
    case 'enum':
      return signed32(word);
    case 'uint':
    case 'flags':
      return unsigned32(word);
    case 'size':
    case 'u64':
      return exactCount(word);
    case 'index':
      return exactCount(BigInt.asIntN(64, word));
    case 'ptr':
    case 'handle':
      return hexWord(word);
    case 'float':
      return f32(word);
    default:
      return undefined;
  }
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    const inner: Record<string, unknown> = typeof next === 'object' && next !== null ? (next as Record<string, unknown>) : {};
    at[key] = inner;
    at = inner;
  }
  const last = path[path.length - 1];
  if (last !== undefined) at[last] = value;
}

/** The record's words as the call's arguments and out-values, in the shapes AclArgs and AclOut describe. */
export function decodeWords(fn: AclFunctionName, words: readonly bigint[], succeeded: boolean): Decoded {
  const params = ACL_FUNCTIONS[fn].params;
  const args: Record<string, unknown> = {};
  const out: Record<string, unknown> = {};
  const missing: string[] = [];
  const wide: string[] = [];
  const fields = structWords(fn);
  const counted = (name: string, param: ParamSpec, value: unknown): unknown => {
    if (param.value.t !== 'ptr' && param.value.t !== 'handle' && isWide(value)) wide.push(`${name} = ${String(value)}`);
    return value;
  };
  params.forEach((param, index) => {
    const word = words[index] ?? 0n;
    const t = param.value.t;
    if (param.dir === 'out') {
      const value = scalar(param, word);
      if (succeeded && value !== undefined) out[param.name] = counted(param.name, param, value);
      return;
    }
    if (t === 'struct') {
      const captured = fields.filter((field) => field.param === param.name);
      if (word === 0n) args[param.name] = null;
      else if (captured.length === 0) {
        args[param.name] = null;
        missing.push(param.name);
      } else {
        const value: Record<string, unknown> = {};
        for (const field of captured) {
          const raw = words[params.length + fields.indexOf(field)] ?? 0n;
          const exact = exactCount(field.signed ? BigInt.asIntN(64, raw) : raw);
          if (isWide(exact)) wide.push(`${[param.name, ...field.path].join('.')} = ${String(exact)}`);
          setPath(value, field.path, exact);
        }
        args[param.name] = value;
      }
    } else if (t === 'structArray' || t === 'list') {
      args[param.name] = [];
      missing.push(param.name);
    } else if (t === 'string' || t === 'charBuffer') {
      args[param.name] = word === 0n ? null : hexWord(word);
      if (word !== 0n) missing.push(param.name);
    } else args[param.name] = counted(param.name, param, scalar(param, word));
  });
  return { args, out, missing, wide };
}

/** The backend of a `pagelens run` agent: the simulator host the traced process lives in beside the simulated ones. */
export interface TraceHost {
  readonly simHost: SimHost;
}

/**
 * Turns each observed call of one traced process into a call event and the state changes its
 * effect records. Synchronous, so the events of one call are never interleaved with another's.
 */
export class TraceEvents {
  readonly #backend: TraceHost;
  readonly pid: number;
  /** Each thread's current device and context (CX-1). */
  readonly threads = new ThreadCurrents();

  constructor(backend: TraceHost, pid: number) {
    this.#backend = backend;
    this.pid = pid;
  }

  record(call: TracedCall, fn: AclFunctionName): void {
    const host = this.#backend.simHost;
    const { state } = host;
    const process = state.processes.get(this.pid);
    // A reset replaced the host: the traced process is not in the new one.
    if (process === undefined) return;
    const decoded = decodeWords(fn, call.words, call.ret === 0);
    const notes: string[] = [];
    if (decoded.missing.length > 0)
      notes.push(`observed in trace mode: a trace record carries no contents for ${decoded.missing.join(', ')}`);
    // The call event keeps such a count exactly; the state, whose sizes are numbers below 2^53, records no change from it.
    if (decoded.wide.length > 0)
      notes.push(
        `${decoded.wide.join(', ')}: 2^53 or more, shown exactly; PageLens's model holds counts below 2^53 and recorded no state change`,
      );
    const seq = host.beginCall();
    let reasons: readonly Reason[] = [];
    if (call.ret === 0 && decoded.wide.length === 0) {
      reasons = this.threads.during(process, call.thread, (changed) => {
        const context: EffectContext = {
          host,
          state,
          pid: this.pid,
          process,
          notes,
          t0: state.time,
          t1: state.time,
          native: { start: state.time, durationNs: call.durationNs },
          observation: {},
          profileOf: (device) => (state.devices[device] ?? state.devices[0])?.profile ?? DEFAULT_PROFILE,
          emit: (body, modeled = false) => {
            if (changesCurrent(body)) changed();
            host.emit(body, modeled ? 'modeled' : 'observed');
          },
        };
        return recordEffects(context, fn, decoded.args as AclArgs<typeof fn>, decoded.out as Partial<AclOut<typeof fn>>);
      });
    }
    const message = notes.join('; ');
    const event: CallEvent = {
      kind: 'call',
      seq,
      t: state.time,
      provenance: 'observed',
      pid: this.pid,
      fn,
      args: decoded.args,
      ret: call.ret,
      durationNs: call.durationNs,
      ...(Object.keys(decoded.out).length === 0 ? {} : { out: decoded.out }),
      ...(message === '' ? {} : { message: message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 1)}…` : message }),
      ...(reasons.length === 0 ? {} : { reasons }),
      thread: call.thread,
    };
    host.endCall(event);
  }
}
