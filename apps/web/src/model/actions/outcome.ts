import { type CallAnswer, errorMessage, errorName, type MemoryEvent, type Reason } from '@pagelens/core';
import { createdBy, type Target } from '../log/effects.ts';

export interface EventLookup {
  eventAtSeq(seq: number): MemoryEvent | undefined;
}

/** How a failure reads: "ACL_ERROR_RT_MEMORY_ALLOCATION (207001): <message>". */
export interface FailureText {
  /** The ACL code name, or undefined when the agent refused the message before any ACL call. */
  readonly name?: string;
  readonly code?: number;
  /** The runtime's (or simulator's) message; the code's catalogue message when there is none. */
  readonly message: string;
}

export function failureText(outcome: CallAnswer): FailureText {
  if (outcome.ret === undefined) return { message: outcome.message ?? '' };
  return {
    name: outcome.retName ?? errorName(outcome.ret),
    code: outcome.ret,
    message: outcome.message ?? errorMessage(outcome.ret),
  };
}

/** "NAME (code): message" in one line, as the issue asks every error to read. */
export function failureLine(outcome: CallAnswer): string {
  const text = failureText(outcome);
  return text.name === undefined ? text.message : `${text.name} (${text.code}): ${text.message}`;
}

/** The call event of an outcome: the first seq it names is its call. */
function callEvent(outcome: CallAnswer, lookup: EventLookup): Extract<MemoryEvent, { kind: 'call' }> | undefined {
  for (const seq of outcome.events) {
    const event = lookup.eventAtSeq(seq);
    if (event?.kind === 'call') return event;
  }
  return undefined;
}

/** The rule-ID reasons the runtime gave for a failure (they travel on the failed call's event). */
export function failureReasons(outcome: CallAnswer, lookup: EventLookup): readonly Reason[] {
  return callEvent(outcome, lookup)?.reasons ?? [];
}

/** The pid that made the call, to find this client's process when its name does not tell. */
export function callPid(outcome: CallAnswer, lookup: EventLookup): number | undefined {
  return callEvent(outcome, lookup)?.pid;
}

/** The objects a call created, in the order its events made them (for "select the new allocation"). */
export function createdObjects(outcome: CallAnswer, lookup: EventLookup): Target[] {
  const created: Target[] = [];
  for (const seq of outcome.events) {
    const event = lookup.eventAtSeq(seq);
    const made = event === undefined ? undefined : createdBy(event);
    if (made !== undefined) created.push(made);
  }
  return created;
}

/** The copies a call made (aclrtMemcpy, aclrtMemcpyAsync), with their timing and reasons (CP-3, HM-1). */
export function copiesOf(outcome: CallAnswer, lookup: EventLookup): Extract<MemoryEvent, { kind: 'copy' }>[] {
  const copies: Extract<MemoryEvent, { kind: 'copy' }>[] = [];
  for (const seq of outcome.events) {
    const event = lookup.eventAtSeq(seq);
    if (event?.kind === 'copy') copies.push(event);
  }
  return copies;
}

/** Out-parameters as "name = value" rows, in the order the result gave them. */
export function outRows(outcome: CallAnswer): { name: string; value: string }[] {
  return Object.entries(outcome.out ?? {}).map(([name, value]) => ({
    name,
    value: value === null ? 'NULL' : typeof value === 'object' ? JSON.stringify(value) : String(value),
  }));
}
