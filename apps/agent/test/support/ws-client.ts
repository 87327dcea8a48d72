import {
  type AclFunctionName,
  type AgentMessage,
  createHostState,
  decodeSnapshot,
  type HostState,
  type MemoryEvent,
  parseAgentMessage,
  reduce,
} from '@pagelens/core';
import WebSocket from 'ws';

type Result = Extract<AgentMessage, { type: 'result' }>;
type ErrorReply = Extract<AgentMessage, { type: 'error' }>;

/**
 * A scripted protocol client for tests: it validates every agent message, keeps a replica of the
 * host state from the snapshot and event stream, and pairs call results by id.
 */
export class TestClient {
  readonly socket: WebSocket;
  readonly messages: AgentMessage[] = [];
  /** Every message as the agent sent it (before parsing). */
  readonly texts: string[] = [];
  readonly events: MemoryEvent[] = [];
  replica: HostState = createHostState([]);
  readonly #waiters: { match: (m: AgentMessage) => boolean; resolve: (m: AgentMessage) => void }[] = [];
  #nextId = 1;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => this.#receive(data.toString('utf8')));
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static connect(port: number, token: string, headers: Record<string, string> = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`, { headers });
      socket.once('open', () => resolve(new TestClient(socket)));
      socket.once('error', reject);
    });
  }

  #receive(text: string): void {
    this.texts.push(text);
    const parsed = parseAgentMessage(text);
    if (!parsed.ok) throw new Error(`agent sent an unparsable message: ${parsed.message}`);
    const message = parsed.value;
    this.messages.push(message);
    if (message.type === 'snapshot') {
      this.replica = decodeSnapshot(message.snapshot);
      if (message.reset) this.events.length = 0;
    } else if (message.type === 'events') {
      for (const event of message.events) {
        if (event.seq <= this.replica.seq) continue;
        reduce(this.replica, event);
        this.events.push(event);
      }
    }
    for (const [index, waiter] of this.#waiters.entries()) {
      if (waiter.match(message)) {
        this.#waiters.splice(index, 1);
        waiter.resolve(message);
        break;
      }
    }
    this.#settle();
  }

  /** Waits for the first message (already received or future) that matches. */
  waitFor(match: (m: AgentMessage) => boolean, timeoutMs = 5000): Promise<AgentMessage> {
    const seen = this.messages.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.#wait(match, timeoutMs);
  }

  /** Waits for the next matching message from now on. */
  next(match: (m: AgentMessage) => boolean = () => true, timeoutMs = 5000): Promise<AgentMessage> {
    return this.#wait(match, timeoutMs);
  }

  #wait(match: (m: AgentMessage) => boolean, timeoutMs: number): Promise<AgentMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching message within ${timeoutMs} ms; last: ${JSON.stringify(this.messages.at(-1))?.slice(0, 300)}`)),
        timeoutMs,
      );
      this.#waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  async hello(
    role: 'driver' | 'viewer' = 'driver',
    resume?: string,
    snapshots?: 'rows' | 'packed',
  ): Promise<Extract<AgentMessage, { type: 'welcome' }>> {
    this.send({
      type: 'hello',
      protocol: 1,
      role,
      ...(resume === undefined ? {} : { resume }),
      ...(snapshots === undefined ? {} : { snapshots }),
    });
    const reply = await this.next((m) => m.type === 'welcome' || m.type === 'error');
    if (reply.type !== 'welcome') throw new Error(`hello refused: ${JSON.stringify(reply)}`);
    await this.waitFor((m) => m.type === 'snapshot');
    // Presence follows a moment later (it is coalesced); waiting for it keeps later message counts exact.
    await this.waitFor((m) => m.type === 'presence');
    return reply;
  }

  #pendingSettles: { seq: number; resolve: () => void }[] = [];

  #settle(): void {
    this.#pendingSettles = this.#pendingSettles.filter((p) => {
      if (this.replica.seq < p.seq) return true;
      p.resolve();
      return false;
    });
  }

  /** Resolves when the replica has applied events up to `seq`. */
  applied(seq: number): Promise<void> {
    if (this.replica.seq >= seq) return Promise.resolve();
    return new Promise((resolve) => this.#pendingSettles.push({ seq, resolve }));
  }

  /** Sends a call and resolves with its result once the replica holds the events it caused; or the error reply. */
  async call(
    fn: AclFunctionName | string,
    args: Record<string, unknown> = {},
    extra: Record<string, unknown> = {},
  ): Promise<Result | ErrorReply> {
    const id = this.#nextId++;
    const reply = this.next((m) => (m.type === 'result' || m.type === 'error') && m.id === id, 10_000);
    this.send({ type: 'call', id, fn, args, ...extra });
    const message = await reply;
    if (message.type === 'result') {
      await this.applied(Math.max(0, ...message.events));
      return message;
    }
    if (message.type === 'error') return message;
    throw new Error('unreachable');
  }

  /** A call that must succeed with ACL_SUCCESS; returns its out-fields. */
  async ok(fn: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const reply = await this.call(fn, args);
    if (reply.type !== 'result' || reply.ret !== 0) throw new Error(`${fn} failed: ${JSON.stringify(reply)}`);
    return { ...reply.out };
  }

  close(): void {
    this.socket.close();
  }
}
