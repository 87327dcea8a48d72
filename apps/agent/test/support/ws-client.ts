import { type AgentMessage, parseAgentMessage } from '@pagelens/core';
import WebSocket from 'ws';

/** A scripted protocol client: sends JSON, and waits for parsed agent messages in order. */
export class TestClient {
  readonly socket: WebSocket;
  readonly #queue: AgentMessage[] = [];
  readonly #waiters: ((message: AgentMessage) => void)[] = [];
  closed: Promise<{ code: number; reason: string }>;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      const parsed = parseAgentMessage(data.toString('utf8'));
      if (!parsed.ok) throw new Error(`agent sent an unparsable message: ${parsed.message}`);
      const waiter = this.#waiters.shift();
      if (waiter === undefined) this.#queue.push(parsed.value);
      else waiter(parsed.value);
    });
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static connect(port: number, token: string, headers: Record<string, string> = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { headers });
      socket.once('open', () => resolve(new TestClient(socket)));
      socket.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  next(timeoutMs = 5000): Promise<AgentMessage> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no message within ${timeoutMs} ms`)), timeoutMs);
      this.#waiters.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  close(): void {
    this.socket.close();
  }
}
