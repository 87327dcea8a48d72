import { lstatSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/*
 * Where a serving agent's local channel for programs lives, so that `pagelens run --agent URL`
 * finds it from the explorer URL alone: the URL's port names the socket, the URL's token is the
 * session token. The socket sits in a directory only its user may enter (0700, checked: owned by
 * this user, not a link), e.g. /tmp/pagelens-1000/agent-7300.sock; nothing listens on TCP for it.
 */

/** The private directory of this user's agents' sockets, made (or checked) 0700. */
export function socketDirectory(): string {
  const uid = userInfo().uid;
  const dir = join(tmpdir(), `pagelens-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new Error(
      `${dir} must be a directory of user ${uid} with mode 0700 (it holds the agents' program sockets); remove it and try again`,
    );
  }
  return dir;
}

export function agentSocketPath(port: number): string {
  return join(socketDirectory(), `agent-${port}.sock`);
}

export interface AgentTarget {
  readonly url: string;
  readonly socketPath: string;
  readonly token: string;
}

const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The running agent a URL names: its socket and token; throws with what was wrong and what is allowed. */
export function parseAgentUrl(text: string): AgentTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--agent ${text} is not a URL; give the explorer URL the agent printed, e.g. http://127.0.0.1:7300/?token=…`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`--agent ${text}: the URL must start with http:// (the explorer URL)`);
  if (!LOCAL.has(url.hostname)) {
    throw new Error(
      `--agent ${text}: programs reach an agent through its local Unix socket, so it must run on this machine (127.0.0.1 or localhost), not ${url.hostname}`,
    );
  }
  const token = url.searchParams.get('token');
  if (token === null || token === '')
    throw new Error(`--agent ${text}: the URL has no ?token=…; give the whole explorer URL the agent printed`);
  const port = Number(url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : url.port);
  return { url: text, socketPath: agentSocketPath(port), token };
}

/** Asks the agent behind `target` whether it is there and takes the token; resolves, or rejects with why not. */
export function probeAgent(target: AgentTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.socketPath);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const why = error.code === 'ENOENT' || error.code === 'ECONNREFUSED' ? 'no agent is listening there' : error.message;
      reject(
        new Error(
          `cannot reach the PageLens agent at ${target.url}: ${why} (its program socket ${target.socketPath}); start one with \`pagelens serve\` on that port, or leave out --agent to start one`,
        ),
      );
    });
    socket.on('close', () => {
      if (answer.startsWith('pong')) resolve();
      else if (answer !== '')
        reject(new Error(`the PageLens agent at ${target.url} refused the token in the URL; copy the URL it printed`));
      else reject(new Error(`the PageLens agent at ${target.url} closed its program socket without answering`));
    });
    socket.end(`ping ${target.token}\n`);
  });
}

/** Tells the agent how a program it served ended (the agent is not its parent). Best effort. */
export function reportStatus(target: AgentTarget, pid: number, status: { code: number } | { signal: string }): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(target.socketPath);
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.on('data', () => {});
    socket.end(`${JSON.stringify({ status: 1, token: target.token, pid, ...status })}\n`);
  });
}
