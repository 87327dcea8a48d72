import { isObject, jsonNesting, MAX_CLIENT_NESTING, type ParsedClientMessage, type ParseResult, parseClientMessage } from '@pagelens/core';

type ParsedCall = Extract<ParsedClientMessage, { type: 'call' }>;

/** The keys a call may have. */
const CALL_KEYS: ReadonlySet<string> = new Set(['type', 'id', 'fn', 'args', 'process']);
/** Longest `fn` the `Call` schema accepts (UTF-16 code units, as `z.string().max`). */
const MAX_FN_LENGTH = 64;
/** Highest `process` index the `Call` schema accepts. */
const MAX_PROCESS_INDEX = 3;

/**
 * The parsed call when `value` is, beyond doubt, a message core's `Call` schema accepts, with the
 * value the schema would give; undefined otherwise (the schema then judges and words the error).
 * Same rules: only the keys type, id, fn, args and process; id a safe integer ≥ 0; fn 1–64 code
 * units; args an object (absent means {}); process an integer 0–3 when present. An own `__proto__`
 * key, which the schema strips, is left to the schema.
 */
export function provenCall(value: unknown): ParsedCall | undefined {
  if (!isObject(value) || value.type !== 'call') return undefined;
  for (const key of Object.keys(value)) if (!CALL_KEYS.has(key)) return undefined;
  const { id, fn, args, process: index } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return undefined;
  if (typeof fn !== 'string' || fn.length < 1 || fn.length > MAX_FN_LENGTH) return undefined;
  if (args !== undefined && (!isObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  const call: ParsedCall = { type: 'call', id, fn, args: args ?? {} };
  if (index === undefined) return call;
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index > MAX_PROCESS_INDEX) return undefined;
  return { ...call, process: index };
}

/**
 * Parses and validates one client message. Calls, nearly all of the traffic, are checked by hand
 * against the `Call` schema's rules: the schema's parse cost about a microsecond per call, a tenth
 * of what the agent may spend on a call at 200,000 events per second. Any other message, and any
 * call the check is not sure of, goes through core's schema, so the replies to wrong messages are
 * exactly core's. test/inbound.test.ts holds both to the same answers.
 *
 * A proven call may still hold anything inside its args, and core refuses a message nested deeper
 * than MAX_CLIENT_NESTING before anything recursive walks it; so does this path. The call's other
 * fields are proven scalars, so the message nests one level deeper than its args.
 */
export function parseInbound(text: string): ParseResult<ParsedClientMessage> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return parseClientMessage(text);
  }
  const call = provenCall(value);
  if (call === undefined || 1 + jsonNesting(call.args) > MAX_CLIENT_NESTING) return parseClientMessage(text);
  return { ok: true, value: call };
}
