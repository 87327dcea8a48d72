import { isObject } from '@pagelens/core';

/*
 * One call line from the simulation interposer, `{"f":NAME,"t":TID,"s":"0xSITE","a":{ARGS}}`, as
 * pl_begin() in native/interposer/pl_core.c writes it. The head is read by position and only the
 * arguments go through JSON.parse: the whole line through JSON.parse cost about a fifth of the
 * agent's work per call (bench/suites/run.ts). Any line the fast reading does not recognise exactly
 * is read by JSON.parse instead, so both readings give the same call for every line.
 */

export interface CallLine {
  readonly fn: string;
  readonly thread: number;
  /** The call site's text as sent ("0x…"), or undefined when the line had none. */
  readonly site: string | undefined;
  /** The arguments object: the caller's to change (a fresh object per line). */
  readonly args: Record<string, unknown>;
}

const HEAD = '{"f":"';
const THREAD = '","t":';
const SITE = ',"s":"';
const ARGS = '","a":';
const DECIMAL = /^-?(?:0|[1-9][0-9]{0,15})$/;
/** Whether JSON reads the text between two quotes as is: no escape, no control character. */
function plain(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x5c) return false;
  }
  return true;
}

/** The line's head by position; undefined when it is not exactly the interposer's shape. */
function fastRead(line: string): CallLine | undefined {
  if (!line.startsWith(HEAD) || line.charCodeAt(line.length - 1) !== 0x7d) return undefined;
  const fnEnd = line.indexOf('"', HEAD.length);
  if (fnEnd < 0 || !line.startsWith(THREAD, fnEnd)) return undefined;
  const fn = line.slice(HEAD.length, fnEnd);
  const tidStart = fnEnd + THREAD.length;
  const tidEnd = line.indexOf(',', tidStart);
  if (tidEnd < 0 || !line.startsWith(SITE, tidEnd)) return undefined;
  const tid = line.slice(tidStart, tidEnd);
  const siteStart = tidEnd + SITE.length;
  const siteEnd = line.indexOf('"', siteStart);
  if (siteEnd < 0 || !line.startsWith(ARGS, siteEnd)) return undefined;
  const site = line.slice(siteStart, siteEnd);
  // Escapes, control characters and numbers JSON reads otherwise (exponents, fractions) go to JSON.parse.
  if (!plain(fn) || !plain(site) || !DECIMAL.test(tid)) return undefined;
  const argsStart = siteEnd + ARGS.length;
  // Most calls that change nothing (queries) carry no arguments: "{}" needs no parser.
  if (line.length - argsStart === 3 && line.charCodeAt(argsStart) === 0x7b && line.charCodeAt(argsStart + 1) === 0x7d) {
    return { fn, thread: Number(tid), site, args: {} };
  }
  let args: unknown;
  try {
    args = JSON.parse(line.slice(argsStart, -1));
  } catch {
    return undefined;
  }
  // A value JSON.parse just made is nobody else's: no copy needed to hand it over as changeable.
  return { fn, thread: Number(tid), site, args: isObject(args) ? (args as Record<string, unknown>) : {} };
}

/** The call a line carries; undefined when it is not JSON or has no function name. */
export function readCallLine(line: string): CallLine | undefined {
  const fast = fastRead(line);
  if (fast !== undefined) return fast;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || typeof message.f !== 'string') return undefined;
  return {
    fn: message.f,
    thread: typeof message.t === 'number' ? message.t : 0,
    site: typeof message.s === 'string' ? message.s : undefined,
    args: isObject(message.a) ? { ...message.a } : {},
  };
}
