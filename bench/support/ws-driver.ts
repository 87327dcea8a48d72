import WebSocket from 'ws';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A bare protocol client for benchmarks: JSON in, JSON out, no validation cost on our side unless asked. */
export class BenchClient {
  readonly socket: WebSocket;
  #nextId = 1;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  events = 0;
  onMessage: ((message: Record<string, unknown>) => void) | undefined;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      const record: unknown = JSON.parse(data.toString('utf8'));
      if (!isRecord(record)) return;
      if (record.type === 'events' && Array.isArray(record.events)) this.events += record.events.length;
      this.onMessage?.(record);
      const id = record.id;
      if ((record.type === 'result' || record.type === 'error') && typeof id === 'number') {
        const resolve = this.#waiting.get(id);
        this.#waiting.delete(id);
        resolve?.(record);
      }
    });
  }

  static async connect(port: number, token: string, role: 'driver' | 'viewer'): Promise<BenchClient> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const client = new BenchClient(socket);
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
      this.socket.send(JSON.stringify({ type: 'call', id, fn, args }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
