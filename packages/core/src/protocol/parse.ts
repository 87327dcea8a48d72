import type { z } from 'zod';
import { isBulkAgentMessage } from './fast-agent-message.ts';
import { isObject } from './guards.ts';
import { AgentMessage, ClientMessage } from './messages.ts';
import { unpackSnapshot } from './unpack-snapshot.ts';

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/** Longest text of a received value quoted back in an error message. */
const QUOTE_LIMIT = 60;

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let node: unknown = root;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Reflect.get(node, key);
  }
  return node;
}

/** Turns the first schema issue into one sentence: field, what was received, what is allowed. */
export function describeIssue(root: unknown, error: z.ZodError): { message: string; field?: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { message: 'invalid message' };
  const field = issue.path.map(String).join('.');
  const received = valueAt(root, issue.path);
  const where = field === '' ? 'message' : `field "${field}"`;
  const got = received === undefined ? 'nothing' : quote(received);
  const message = `${where}: received ${got}; ${issue.message}`;
  return field === '' ? { message } : { message, field };
}

function parseJson(text: string): ParseResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return { ok: false, message: `not valid JSON (${reason}); every message is one JSON object` };
  }
}

function validate<T>(schema: z.ZodType<T>, value: unknown): ParseResult<T> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, ...describeIssue(value, result.error) };
}

/** Parsed messages are fresh, mutable data (assignable to the readonly message types senders use). */
export type ParsedClientMessage = z.infer<typeof ClientMessage>;
export type ParsedAgentMessage = z.infer<typeof AgentMessage>;

export function parseClientMessage(text: string): ParseResult<ParsedClientMessage> {
  const json = parseJson(text);
  return json.ok ? validate(ClientMessage, json.value) : json;
}

/**
 * A snapshot message may carry its snapshot packed in columns (`packed`, see packed-snapshot.ts):
 * the rows are rebuilt first, and the message is then validated as if they had been sent.
 */
function unpackMessage(value: unknown): ParseResult<unknown> {
  if (!isObject(value) || value.type !== 'snapshot' || !Object.hasOwn(value, 'packed') || Object.hasOwn(value, 'snapshot')) {
    return { ok: true, value };
  }
  const unpacked = unpackSnapshot(value.packed);
  if (!unpacked.ok) return { ok: false, message: unpacked.message, field: unpacked.field };
  const { packed: _packed, ...rest } = value;
  return { ok: true, value: { ...rest, snapshot: unpacked.value } };
}

/**
 * Event batches and snapshots, nearly all the agent's bytes, are checked by hand-written guards that
 * accept exactly what the schema accepts; a value they refuse is parsed by zod, which words the error.
 */
export function parseAgentMessage(text: string): ParseResult<ParsedAgentMessage> {
  const json = parseJson(text);
  if (!json.ok) return json;
  const message = unpackMessage(json.value);
  if (!message.ok) return message;
  if (isBulkAgentMessage(message.value)) return { ok: true, value: message.value };
  return validate(AgentMessage, message.value);
}
