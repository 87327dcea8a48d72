import type { z } from 'zod';
import { isBulkAgentMessage } from './fast-agent-message.ts';
import { isObject } from './guards.ts';
import { AgentMessage, ClientMessage } from './messages.ts';
import { MAX_AGENT_NESTING, MAX_CLIENT_NESTING, nestingProblem } from './nesting.ts';
import { clip, quote } from './quote.ts';
import { unpackSnapshot } from './unpack-snapshot.ts';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/**
 * Longest text of one schema issue kept in an error message. zod's texts name the schema's options
 * (the event kinds: about 400 characters), except for unknown keys, which issueText words itself.
 */
const ISSUE_LIMIT = 600;
/** Unknown keys named in an error message; the rest are counted. */
const KEYS_NAMED = 3;

/** The value at `path`, own properties only (a path comes from zod, so it is as deep as a schema). */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = Reflect.get(node, key);
  }
  return node;
}

/** zod's text for an issue, kept short: unknown keys are named up to KEYS_NAMED and counted beyond. */
function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const named = issue.keys.slice(0, KEYS_NAMED).map((key) => quote(key));
    const more = issue.keys.length - named.length;
    const list = more > 0 ? `${named.join(', ')} and ${more.toLocaleString('en-US')} more` : named.join(', ');
    return `Unrecognized key${issue.keys.length === 1 ? '' : 's'}: ${list}`;
  }
  return clip(issue.message, ISSUE_LIMIT);
}

/** Turns the first schema issue into one sentence: field, what was received, what is allowed. */
export function describeIssue(root: unknown, error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { message: 'invalid message' };
  const field = issue.path.map((key) => clip(String(key))).join('.');
  const received = valueAt(root, issue.path);
  const where = field === '' ? 'message' : `field "${field}"`;
  const got = received === undefined ? 'nothing' : quote(received);
  const message = `${where}: received ${got}; ${issueText(issue)}`;
  return field === '' ? { message } : { message, field };
}

function parseJson(text: string): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, message: `not valid JSON (${clip(reason, ISSUE_LIMIT)}); every message is one JSON object` };
  }
}

/** Refuses a parsed value nested deeper than `limit` before anything recursive walks it. */
function shallow(value: unknown, limit: number): ParseResult<unknown> {
  const problem = nestingProblem(value, limit);
  return problem === undefined ? { ok: true, value } : { ok: false, message: problem };
}

function validate<T>(schema: z.ZodType<T>, value: unknown): ParseResult<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, ...describeIssue(value, result.error) };
}

/** Parsed messages are fresh, mutable data (assignable to the readonly message types senders use). */
export type ParsedClientMessage = z.infer<typeof ClientMessage>;
export type ParsedAgentMessage = z.infer<typeof AgentMessage>;

/** A client message: JSON nested at most MAX_CLIENT_NESTING levels, then the `ClientMessage` schema. */
export function parseClientMessage(text: string): ParseResult<ParsedClientMessage> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const checked = shallow(json.value, MAX_CLIENT_NESTING);
  return checked.ok ? validate(ClientMessage, checked.value) : checked;
}

/** The messages that carry a snapshot, which may come packed. */
const PACKABLE: ReadonlySet<unknown> = new Set(['snapshot', 'historyBase']);

/**
 * A snapshot message (or a history base) may carry its snapshot packed in columns (`packed`, see packed-snapshot.ts):
 * the rows are rebuilt first, and the message is then validated as if they had been sent.
 */
function unpackMessage(value: unknown): ParseResult<unknown> {
  if (!isObject(value) || !PACKABLE.has(value.type) || !Object.hasOwn(value, 'packed') || Object.hasOwn(value, 'snapshot')) {
    return { ok: true, value };
  }
  const unpacked = unpackSnapshot(value.packed);
  if (!unpacked.ok) return { ok: false, message: unpacked.message, field: unpacked.field };
  const { packed: _packed, ...rest } = value;
  return { ok: true, value: { ...rest, snapshot: unpacked.value } };
}

/**
 * Event batches and snapshots, nearly all the agent's bytes, are checked by guards made from the same
 * tables as the schemas, which accept exactly what the schema accepts; a value they refuse is parsed
 * by zod, which words the error.
 *
 * Their nesting is not measured: walking every value would add 10–25 % to parsing a batch or a
 * snapshot, and they come from the agent the page connected to, not from a stranger. The guards and
 * schemas fix every field's shape, so they nest no deeper than the schemas except in a call event's
 * args and out, which hold what the agent accepted from a client (MAX_CLIENT_NESTING) and what its
 * runtime returned. Refusals are worded through `quote`, which is bounded; the one recursion left on
 * this path is unpackSnapshot's copy of a packed column's shared values. Every other agent message
 * (results, errors, welcomes: small) is measured against MAX_AGENT_NESTING.
 */
export function parseAgentMessage(text: string): ParseResult<ParsedAgentMessage> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const message = unpackMessage(json.value);
  if (!message.ok) return message;
  if (isBulkAgentMessage(message.value)) return { ok: true, value: message.value };
  const checked = shallow(message.value, MAX_AGENT_NESTING);
  return checked.ok ? validate(AgentMessage, checked.value) : checked;
}
