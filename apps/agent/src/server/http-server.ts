import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { PeerHandler, PeerSocket } from '../session/peer-socket.ts';
import { type AccessPolicy, authorizeUpgrade, checkHost, checkToken } from './guards.ts';
import type { Logger } from './logger.ts';
import { FILE_PATH, type ServedFile, serveOneFile } from './one-file.ts';
import { readAssets, sendText, serveStatic } from './static-files.ts';

/** Inbound messages larger than this close the socket (1009): commands are small. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
/** Liveness: ping every interval; a peer that has not answered the previous ping is terminated. */
export const HEARTBEAT_MS = 30_000;
/**
 * Open WebSocket connections (drivers and viewers) one agent serves; more are refused with 503.
 * A workshop of a hundred students fits; each connection costs the agent a few tens of KiB.
 */
export const DEFAULT_MAX_CONNECTIONS = 128;

export interface AgentServerOptions {
  readonly host: string;
  readonly port: number;
  readonly webDir: string;
  readonly policy: AccessPolicy;
  readonly log: Logger;
  readonly heartbeatMs?: number;
  /** Open WebSocket connections at most (default DEFAULT_MAX_CONNECTIONS). */
  readonly maxConnections?: number;
  /** `pagelens open`: the one file served at FILE_PATH to a client with the token. */
  readonly file?: ServedFile;
  /** Called once per authorised WebSocket; returns the session's handler for that socket. */
  readonly accept: (socket: PeerSocket, remote: string) => PeerHandler;
}

export interface AgentServer {
  readonly port: number;
  readonly host: string;
  /** Stops accepting, closes every socket with `code`, and resolves when the port is free. */
  close(code?: number, reason?: string): Promise<void>;
}

function rejectUpgrade(socket: Duplex, status: number, reason: string): void {
  const statusText: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    503: 'Service Unavailable',
  };
  const body = `${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}\r\n` +
      'Content-Type: text/plain; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function remoteOf(request: IncomingMessage): string {
  const { remoteAddress, remotePort } = request.socket;
  return `${remoteAddress ?? '?'}:${remotePort ?? '?'}`;
}

/**
 * Adapts a `ws` socket to the session's PeerSocket. Messages sent in one turn of the event loop
 * leave in one write: the TCP socket is corked on the first send and uncorked once the turn ends
 * (a write system call per result would otherwise dominate the agent's time under load).
 */
function adapt(ws: WebSocket, answering: () => boolean): PeerSocket {
  const raw: unknown = Reflect.get(ws, '_socket');
  const tcp = raw instanceof Socket ? raw : undefined;
  let corked = false;
  const uncork = (): void => {
    if (!corked) return;
    corked = false;
    tcp?.uncork();
  };
  return {
    send: (text) => {
      if (tcp !== undefined && !corked) {
        corked = true;
        tcp.cork();
        setImmediate(uncork);
      }
      // Bytes are one text shared by many clients (an event batch, a snapshot): ws frames them without a copy.
      if (typeof text === 'string') ws.send(text);
      else ws.send(text, { binary: false });
    },
    flush: uncork,
    answering,
    close: (code, reason) => ws.close(code, reason),
    bufferedAmount: () => ws.bufferedAmount,
  };
}

/** One port: the built web app over HTTP, and the agent protocol on /ws. */
export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const { policy, log } = options;
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_PAYLOAD_BYTES,
    perMessageDeflate: false,
    skipUTF8Validation: false,
  });
  const alive = new WeakSet<WebSocket>();
  /** When each socket's unanswered ping was sent; a pong or any message answers it. */
  const pingedAt = new WeakMap<WebSocket, number>();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  /** A peer is answering unless a ping has waited for its pong longer than half a heartbeat. */
  const answering = (ws: WebSocket): boolean => {
    const sent = pingedAt.get(ws);
    return ws.readyState === ws.OPEN && (sent === undefined || Date.now() - sent < heartbeatMs / 2);
  };
  /** Sockets past the checks, from the upgrade until they close (counted before the handshake ends). */
  let open = 0;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;

  const assets = readAssets(options.webDir);
  const server: Server = createServer((request, response) => {
    const hostVerdict = checkHost({ url: request.url ?? '/', headers: request.headers }, policy);
    if (!hostVerdict.ok) {
      sendText(response, hostVerdict.status, hostVerdict.reason);
      return;
    }
    const path = new URL(request.url ?? '/', 'http://agent.invalid').pathname;
    if (path === '/ws') {
      // A plain GET tells a browser, which cannot see why an upgrade failed, whether its token is good.
      const tokenVerdict = checkToken({ url: request.url ?? '/', headers: request.headers }, policy);
      if (!tokenVerdict.ok) {
        sendText(response, tokenVerdict.status, tokenVerdict.reason);
        return;
      }
      response.setHeader('Upgrade', 'websocket');
      sendText(response, 426, '/ws is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket) and a token');
      return;
    }
    if (path === FILE_PATH) {
      serveOneFile(request, response, options.file, policy, log);
      return;
    }
    serveStatic(options.webDir, path, request.method ?? 'GET', response, assets).catch((error: unknown) => {
      // Neither the path nor the error's text (which names the path) is logged: a path may carry a token.
      log.error(`serving a file failed (${error instanceof Error && 'code' in error ? String(error.code) : 'error'})`);
      if (!response.headersSent) sendText(response, 500, 'internal error');
      else response.destroy();
    });
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const verdict = authorizeUpgrade({ url: request.url ?? '/', headers: request.headers }, policy);
    const remote = remoteOf(request);
    if (!verdict.ok) {
      // The summary never repeats what the client sent: its path, query or headers may carry a token.
      log.info(`refused WebSocket from ${remote}: ${verdict.status} ${verdict.summary}`);
      rejectUpgrade(socket, verdict.status, verdict.reason);
      return;
    }
    if (open >= maxConnections) {
      log.warn(`refused WebSocket from ${remote}: ${maxConnections} connections are open (--max-connections)`);
      rejectUpgrade(
        socket,
        503,
        `this agent already serves ${maxConnections} connections, its limit; close another tab or viewer, or start the agent with a higher --max-connections`,
      );
      return;
    }
    open += 1;
    let counted = true;
    const uncount = (): void => {
      if (counted) open -= 1;
      counted = false;
    };
    socket.once('close', uncount);
    wss.handleUpgrade(request, socket, head, (ws) => {
      alive.add(ws);
      ws.on('pong', () => {
        alive.add(ws);
        pingedAt.delete(ws);
      });
      const handler = options.accept(
        adapt(ws, () => answering(ws)),
        remote,
      );
      ws.on('message', (data, isBinary) => {
        pingedAt.delete(ws);
        if (isBinary) {
          ws.close(1003, 'binary frames are not part of the protocol; send JSON text');
          return;
        }
        try {
          handler.message(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString('utf8'));
        } catch (error) {
          // A bug, not a client's fault: the agent keeps serving everyone else, and this client is told.
          log.error(`handling a message from ${remote} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          ws.close(1011, 'internal error handling a message');
        }
      });
      ws.on('close', (code, reason) => {
        uncount();
        handler.closed(code, reason.toString('utf8'));
      });
      ws.on('error', (error) => log.info(`socket ${remote}: ${error.message}`));
    });
  });

  const heartbeat = setInterval(() => {
    for (const ws of wss.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      pingedAt.set(ws, Date.now());
      ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address: AddressInfo | string | null = server.address();
  if (address === null || typeof address === 'string') throw new Error('the agent server is not listening on a TCP port');

  return {
    port: address.port,
    host: options.host,
    close: async (code = 1001, reason = 'agent shutting down') => {
      clearInterval(heartbeat);
      for (const ws of wss.clients) ws.close(code, reason);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      for (const ws of wss.clients) ws.terminate();
    },
  };
}
