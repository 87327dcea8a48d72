import { type Hello, PROTOCOL_VERSION, type Role } from '@pagelens/core';

/**
 * The hello this page sends: the snapshot packed in columns, the session's history after it (time
 * travel and the log reach back before the page joined), and the resume token after a reconnect.
 */
export function helloMessage(role: Role, resume?: string): Hello {
  return {
    type: 'hello',
    protocol: PROTOCOL_VERSION,
    role,
    snapshots: 'packed',
    history: true,
    ...(resume === undefined ? {} : { resume }),
  };
}

/**
 * The page's first socket, opened by the boot script before the app's code has even loaded, so the
 * agent builds the snapshot while the browser compiles the app (a large host's snapshot takes the
 * agent 100 ms and more). It says the first hello itself and keeps what arrives until the app's
 * AgentClient adopts it.
 */
export interface EarlySocket {
  readonly socket: WebSocket;
  /** Agent messages received before adoption, in order. */
  readonly received: string[];
  /** The socket closed before adoption (the client then connects as usual). */
  closed: boolean;
  /** Set by the adopting client: from then on messages go to it, not to `received`. */
  adopted: boolean;
}

/** The URL of the agent's socket for a page URL and token (same origin, `/ws?token=…`). */
export function socketUrl(pageUrl: string, token: string): string {
  const url = new URL('/ws', pageUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = new URLSearchParams({ token }).toString();
  return url.toString();
}

/** Opens the socket and greets the agent on open; undefined without a token (the app explains that). */
export function openEarlySocket(pageUrl: string, createSocket: (url: string) => WebSocket): EarlySocket | undefined {
  const page = new URL(pageUrl);
  const token = page.searchParams.get('token');
  if (token === null || token === '') return undefined;
  // pagelens open serves a file, not a session: there is no socket to open.
  if (page.searchParams.has('open')) return undefined;
  const role: Role = page.searchParams.get('role') === 'viewer' ? 'viewer' : 'driver';
  const socket = createSocket(socketUrl(pageUrl, token));
  const early: EarlySocket = { socket, received: [], closed: false, adopted: false };
  socket.addEventListener('open', () => socket.send(JSON.stringify(helloMessage(role))));
  socket.addEventListener('message', (event: MessageEvent) => {
    if (!early.adopted && typeof event.data === 'string') early.received.push(event.data);
  });
  socket.addEventListener('close', () => {
    early.closed = true;
  });
  return early;
}
