import { type AgentMessage, type ClientMessage, PROTOCOL_VERSION, parseAgentMessage, type Role } from '@pagelens/core';
import type { AppStore } from '../store/app-store.ts';
import { backoffDelay } from './backoff.ts';

/** The browser APIs the client needs, injected so tests can drive it without a network. */
export interface ClientEnvironment {
  readonly createSocket: (url: string) => WebSocket;
  readonly fetch: typeof fetch;
  readonly setTimeout: (callback: () => void, ms: number) => number;
  readonly clearTimeout: (handle: number) => void;
  readonly now: () => number;
  readonly random: () => number;
}

export interface AgentClientOptions {
  /** The page's own URL; the agent is at the same origin. */
  readonly pageUrl: string;
  readonly token: string | undefined;
  readonly role: Role;
  readonly store: AppStore;
  readonly environment: ClientEnvironment;
}

export function browserEnvironment(): ClientEnvironment {
  return {
    createSocket: (url) => new WebSocket(url),
    fetch: (...args) => fetch(...args),
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    clearTimeout: (handle) => window.clearTimeout(handle),
    now: () => Date.now(),
    random: () => Math.random(),
  };
}

/**
 * Keeps one WebSocket to the agent alive and mirrors its state into the store. It lives outside
 * the store and calls the store's actions; components never touch the socket.
 */
export class AgentClient {
  readonly #options: AgentClientOptions;
  #socket: WebSocket | undefined;
  #attempt = 0;
  #retryTimer: number | undefined;
  #welcomed = false;
  #stopped = false;

  constructor(options: AgentClientOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#options.token === undefined || this.#options.token === '') {
      this.#options.store.getState().setConnection({ status: 'no-token' });
      return;
    }
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#retryTimer !== undefined) this.#options.environment.clearTimeout(this.#retryTimer);
    this.#socket?.close(1000, 'client stopped');
  }

  send(message: ClientMessage): void {
    this.#socket?.send(JSON.stringify(message));
  }

  #wsUrl(): string {
    const url = new URL('/ws', this.#options.pageUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.search = new URLSearchParams({ token: this.#options.token ?? '' }).toString();
    return url.toString();
  }

  #connect(): void {
    const { store, environment, role } = this.#options;
    this.#attempt += 1;
    this.#welcomed = false;
    store.getState().setConnection({ status: 'connecting', attempt: this.#attempt });
    const socket = environment.createSocket(this.#wsUrl());
    this.#socket = socket;
    socket.onopen = () => this.send({ type: 'hello', protocol: PROTOCOL_VERSION, role });
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data === 'string') this.#receive(event.data);
    };
    socket.onclose = () => {
      if (this.#socket !== socket || this.#stopped) return;
      this.#socket = undefined;
      this.#lost();
    };
  }

  #receive(text: string): void {
    const parsed = parseAgentMessage(text);
    if (!parsed.ok) {
      // The agent sent something this client cannot read: a version skew or a bug. Say so.
      this.#options.store.getState().setConnection({ status: 'incompatible', message: parsed.message });
      this.#stopped = true;
      this.#socket?.close(1002, 'unreadable message');
      return;
    }
    this.#handle(parsed.value);
  }

  #handle(message: AgentMessage): void {
    const { store } = this.#options;
    switch (message.type) {
      case 'welcome':
        this.#welcomed = true;
        this.#attempt = 0;
        store.getState().setConnection({
          status: 'connected',
          backend: message.backend,
          protocol: message.protocol,
          role: message.role,
          sessionId: message.sessionId,
          host: message.host,
        });
        return;
      case 'error':
        if (message.code === 'protocol-mismatch') {
          this.#stopped = true;
          store.getState().setConnection({ status: 'incompatible', message: message.message });
        }
        return;
    }
  }

  /** The socket closed. Find out whether the token is at fault before retrying. */
  #lost(): void {
    if (this.#welcomed) {
      this.#scheduleRetry();
      return;
    }
    void this.#diagnose().then((unauthorized) => {
      if (this.#stopped) return;
      if (unauthorized !== undefined) {
        this.#options.store.getState().setConnection({ status: 'unauthorized', reason: unauthorized });
        return;
      }
      this.#scheduleRetry();
    });
  }

  /**
   * Browsers hide the HTTP status of a refused WebSocket upgrade. A plain GET of /ws with the
   * same token answers 401 when the token is wrong (426 when it is right), which tells the two apart.
   */
  async #diagnose(): Promise<string | undefined> {
    try {
      const response = await this.#options.environment.fetch(new URL('/ws', this.#options.pageUrl), {
        headers: { Authorization: `Bearer ${this.#options.token ?? ''}` },
        cache: 'no-store',
      });
      if (response.status === 401 || response.status === 403) return (await response.text()).trim();
      return undefined;
    } catch {
      return undefined;
    }
  }

  #scheduleRetry(): void {
    const { environment, store } = this.#options;
    const attempt = this.#attempt + 1;
    // Waits grow with the number of failed attempts so far: 0.5 s after the first.
    const delay = backoffDelay(Math.max(1, this.#attempt), environment.random());
    store.getState().setConnection({ status: 'unreachable', attempt, retryAt: environment.now() + delay });
    this.#retryTimer = environment.setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect();
    }, delay);
  }
}
