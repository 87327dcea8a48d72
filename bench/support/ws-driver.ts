import { Socket } from 'node:net';
import { isObject } from '@pagelens/core';
import WebSocket from 'ws';

export interface BenchClientOptions {
  /**
   * A load generator that only drives: event batches are received but not parsed (nor counted).
   * The client whose throughput is measured keeps the default and parses every message.
   */
  readonly ignoreEvents?: boolean;
  /** Calls sent in one turn of the event loop leave in one TCP write, as the agent does with its replies. */
  readonly batchWrites?: boolean;
}

const EVENTS_PREFIX = Buffer.from('{"type":"events"');
/** The head of an events batch as the agent writes it: the seq range is read without parsing the rest. */
const EVENTS_HEAD = /^\{"type":"events","from":(\d+),"to":(\d+)/;

/** A bare protocol client for benchmarks: JSON in, JSON out, no validation cost on our side unless asked. */
export class BenchClient {
  readonly socket: WebSocket;
  readonly #options: BenchClientOptions;
  #nextId = 1;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #corked = false;
  /** Events received (counted from each batch's seq range when batches are not parsed). */
  events = 0;
  /** The highest event seq received. */
  lastSeq = 0;
  onMessage: ((message: Record<string, unknown>) => void) | undefined;

  private constructor(socket: WebSocket, options: BenchClientOptions) {
    this.socket = socket;
    this.#options = options;
    socket.on('message', (data: Buffer) => {
      if (options.ignoreEvents === true && data.subarray(0, EVENTS_PREFIX.length).equals(EVENTS_PREFIX)) {
        const head = EVENTS_HEAD.exec(data.toString('latin1', 0, Math.min(64, data.length)));
        if (head !== null) {
          this.events += Number(head[2]) - Number(head[1]) + 1;
          this.lastSeq = Math.max(this.lastSeq, Number(head[2]));
        }
        return;
      }
      const record: unknown = JSON.parse(data.toString('utf8'));
      if (!isObject(record)) return;
      if (record.type === 'events' && Array.isArray(record.events)) {
        this.events += record.events.length;
        if (typeof record.to === 'number' && record.to > this.lastSeq) this.lastSeq = record.to;
      }
      this.onMessage?.(record);
      const id = record.id;
      if ((record.type === 'result' || record.type === 'error') && typeof id === 'number') {
        const resolve = this.#waiting.get(id);
        this.#waiting.delete(id);
        resolve?.(record);
      }
    });
  }

  static async connect(port: number, token: string, role: 'driver' | 'viewer', options: BenchClientOptions = {}): Promise<BenchClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const client = new BenchClient(socket, options);
    const welcomed = new Promise<void>((resolve) => {
      const previous = client.onMessage;
      client.onMessage = (message) => {
        if (message.type === 'snapshot') {
          client.onMessage = previous;
          resolve();
        }
      };
    });
    socket.send(JSON.stringify({ type: 'hello', protocol: 1, role }));
    await welcomed;
    return client;
  }

  call(fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      if (this.#options.batchWrites === true) this.#corkForThisTurn();
      this.socket.send(JSON.stringify({ type: 'call', id, fn, args }));
    });
  }

  #corkForThisTurn(): void {
    const tcp: unknown = Reflect.get(this.socket, '_socket');
    if (this.#corked || !(tcp instanceof Socket)) return;
    this.#corked = true;
    tcp.cork();
    setImmediate(() => {
      this.#corked = false;
      tcp.uncork();
    });
  }

  close(): void {
    this.socket.close();
  }
}
