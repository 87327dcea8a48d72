import { tokensEqual } from './token.ts';

/**
 * Who may talk to the agent. The checks are pure functions of the request line and headers so
 * they are tested without a socket; the HTTP server only applies their verdicts.
 */
export interface AccessPolicy {
  readonly token: string;
  /** Host names (without port) accepted in the Host header besides the loopback names. */
  readonly allowedHosts: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) accepted besides the agent's own. */
  readonly allowedOrigins: ReadonlySet<string>;
}

export interface RequestLike {
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * A refusal carries the reason for the client and a short `summary` for the agent's log, which
 * never repeats anything the client sent (a path or header may carry a token).
 */
export type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 403 | 404 | 426 | 503; reason: string; summary: string };

const OK: Verdict = { ok: true };
/** A DNS name or a bracketed IPv6 literal: what --allow-host can name. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Longest part of a header repeated back to the client. */
const HEADER_QUOTE_LIMIT = 100;

function quoteHeader(value: string): string {
  return value.length > HEADER_QUOTE_LIMIT ? `${value.slice(0, HEADER_QUOTE_LIMIT)}…` : value;
}

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

function header(request: RequestLike, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The host name of a Host header (RFC 9110 §7.2: `host [":" port]`), without its port, lower-cased;
 * IPv6 literals keep their brackets. A header that is not of that form (`[::1]evil.com`,
 * `localhost:evil`) is returned whole, so it matches no allowed name.
 */
export function hostName(hostHeader: string): string {
  const header = hostHeader.toLowerCase();
  const end = header.startsWith('[') ? header.indexOf(']') + 1 : 0;
  if (header.startsWith('[') && end === 0) return header;
  const colon = header.indexOf(':', end);
  const name = colon === -1 ? header : header.slice(0, colon);
  const port = colon === -1 ? '' : header.slice(colon + 1);
  if (end > 0 && name.length !== end) return header;
  if (colon !== -1 && !/^[0-9]{1,5}$/.test(port)) return header;
  return name;
}

/** DNS-rebinding defence: a page served from evil.example must not reach us by resolving to 127.0.0.1. */
export function checkHost(request: RequestLike, policy: AccessPolicy): Verdict {
  const host = header(request, 'host');
  if (host === undefined || host === '') {
    return { ok: false, status: 400, reason: 'missing Host header', summary: 'no Host header' };
  }
  const name = hostName(host);
  if (LOOPBACK_HOSTS.has(name) || policy.allowedHosts.has(name)) return OK;
  return {
    ok: false,
    status: 403,
    reason: `Host "${quoteHeader(name)}" is not allowed; use localhost, 127.0.0.1 or [::1], or start the agent with --allow-host ${HOST_NAME.test(name) ? name : '<name>'}`,
    summary: 'Host not allowed',
  };
}

/** The token from `?token=` or from `Authorization: Bearer …`. */
export function presentedToken(request: RequestLike): string | undefined {
  const query = new URL(request.url, 'http://agent.invalid').searchParams.get('token');
  if (query !== null && query !== '') return query;
  const auth = header(request, 'authorization');
  const match = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match?.[1];
}

export function checkToken(request: RequestLike, policy: AccessPolicy): Verdict {
  const token = presentedToken(request);
  if (token === undefined) {
    return {
      ok: false,
      status: 401,
      reason: 'missing token: open the URL the agent printed at start (it ends in ?token=…), or send Authorization: Bearer <token>',
      summary: 'no token',
    };
  }
  if (!tokensEqual(policy.token, token)) {
    return {
      ok: false,
      status: 401,
      reason: 'wrong token: the agent prints a new token at every start; open the URL it printed last',
      summary: 'wrong token',
    };
  }
  return OK;
}

/**
 * Cross-site WebSocket hijacking defence. Browsers always send Origin; it must be the agent's own
 * origin (the page it served) or one allowed with --allow-origin. Scripted clients send no Origin
 * and are let through because the token was already checked. "null" (sandboxed frames, file://)
 * is never accepted.
 */
export function checkOrigin(request: RequestLike, policy: AccessPolicy): Verdict {
  const origin = header(request, 'origin');
  if (origin === undefined || origin === '') return OK;
  const host = header(request, 'host') ?? '';
  const own = new Set([`http://${host}`, `https://${host}`]);
  if (own.has(origin) || policy.allowedOrigins.has(origin)) return OK;
  return {
    ok: false,
    status: 403,
    reason: `Origin "${quoteHeader(origin)}" is not allowed; only pages served by this agent may connect (or start it with --allow-origin ${isOrigin(origin) ? origin : '<origin>'})`,
    summary: 'Origin not allowed',
  };
}

/** All checks for a WebSocket upgrade, in the order a client can act on them. */
export function authorizeUpgrade(request: RequestLike, policy: AccessPolicy): Verdict {
  const path = new URL(request.url, 'http://agent.invalid').pathname;
  if (path !== '/ws') return { ok: false, status: 404, reason: 'no WebSocket endpoint at this path; use /ws', summary: 'no such endpoint' };
  for (const check of [checkHost, checkToken, checkOrigin]) {
    const verdict = check(request, policy);
    if (!verdict.ok) return verdict;
  }
  return OK;
}
