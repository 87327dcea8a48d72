import {
  type AclFunctionName,
  type ClientMessage,
  type CodedText,
  type ParsedAgentMessage,
  parseAgentMessage,
  type Role,
  text,
  type WireArgs,
  withText,
} from '@pagelens/core';
import { filterAfterRuns } from '../model/processes/process-filter.ts';
import type { CallOutcome, ResetOutcome } from '../store/actions-slice.ts';
import type { AppStore } from '../store/app-store.ts';
import { backoffDelay } from './backoff.ts';
import { type EarlySocket, helloMessage, socketUrl } from './early-socket.ts';
import { FOLLOW_PUBLISH_MS, FollowPublisher } from './follow-publisher.ts';

/** A message's code, passed on when it has one (an older agent sends none). */
function coded(message: { readonly messageCode?: CodedText }): { messageCode?: CodedText } {
  return message.messageCode === undefined ? {} : { messageCode: message.messageCode };
}

interface PendingCall {
  readonly fn: string;
  readonly resolve: (outcome: CallOutcome) => void;
  /** Set once the result arrived: the highest event seq it names, which the replica must reach first. */
  outcome?: CallOutcome;
  waitFor?: number;
}

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
  /** The socket the boot script opened and greeted; the first connection adopts it (early-socket.ts). */
  readonly early?: EarlySocket;
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
  #nextId = 1;
  readonly #pending = new Map<number, PendingCall>();
  /** Resets asked for and not yet answered, by id. */
  readonly #resets = new Map<number, (outcome: ResetOutcome) => void>();
  #resumeToken: string | undefined;
  #early: EarlySocket | undefined;
  /** The agent's refusal of this hello because another driver holds the session, until the next attempt. */
  #driverBusy: { readonly message: string; readonly messageCode?: CodedText } | undefined;
  readonly #follow: FollowPublisher;
  #stopFollowing: (() => void) | undefined;

  constructor(options: AgentClientOptions) {
    this.#options = options;
    this.#early = options.early;
    this.#follow = new FollowPublisher({
      // A window that closes after this page lost the driver's seat (a takeover) sends nothing.
      send: (state) => {
        if (this.#welcomed && options.store.getState().session?.role === 'driver') this.send({ type: 'followState', state });
      },
      schedule: (flush) => options.environment.setTimeout(flush, FOLLOW_PUBLISH_MS),
    });
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
    this.#stopFollowing?.();
    if (this.#retryTimer !== undefined) this.#options.environment.clearTimeout(this.#retryTimer);
    this.#socket?.close(1000, 'client stopped');
  }

  send(message: ClientMessage): void {
    this.#socket?.send(JSON.stringify(message));
  }

  #connect(): void {
    const { store, environment, role } = this.#options;
    this.#attempt += 1;
    this.#welcomed = false;
    store.getState().setConnection({ status: 'connecting', attempt: this.#attempt });
    // The boot script's socket, once, if it is still open: it has said (or will say, on open) this hello.
    const early = this.#early !== undefined && !this.#early.closed && !this.#early.adopted ? this.#early : undefined;
    this.#early = undefined;
    const socket = early?.socket ?? environment.createSocket(socketUrl(this.#options.pageUrl, this.#options.token ?? ''));
    this.#socket = socket;
    if (early === undefined) socket.onopen = () => this.send(helloMessage(role, this.#resumeToken));
    socket.onmessage = (event: MessageEvent) => {
      if (typeof event.data === 'string') this.#receive(event.data);
    };
    socket.onclose = () => {
      if (this.#socket !== socket || this.#stopped) return;
      this.#socket = undefined;
      this.#lost();
    };
    if (early !== undefined) {
      early.adopted = true;
      for (const text of early.received.splice(0)) if (!this.#stopped) this.#receive(text);
    }
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

  #handle(message: ParsedAgentMessage): void {
    const { store, environment } = this.#options;
    const state = store.getState();
    switch (message.type) {
      case 'welcome':
        this.#welcomed = true;
        this.#attempt = 0;
        this.#resumeToken = message.resumeToken;
        state.setSession({
          sessionId: message.sessionId,
          role: message.role,
          backend: message.backend,
          host: message.host,
          devices: message.devices,
          functions: new Set(message.functions),
          limits: message.limits,
          ...(message.resumeToken === undefined ? {} : { resumeToken: message.resumeToken }),
        });
        state.setConnection({
          status: 'connected',
          backend: message.backend,
          protocol: message.protocol,
          role: message.role,
          sessionId: message.sessionId,
          host: message.host,
        });
        if (message.role === 'driver') this.#publishFollowing();
        return;
      case 'host': {
        // The host was replaced by a reset, maybe with another profile or device count: the welcome's facts, anew.
        if (state.session !== undefined) state.setSession({ ...state.session, host: message.host, devices: message.devices });
        if (state.connection.status === 'connected') state.setConnection({ ...state.connection, host: message.host });
        if (state.device >= message.devices.length) state.setDevice(0);
        return;
      }
      case 'snapshot':
        state.applySnapshot(message.snapshot, message.reset);
        if (message.reset === true) this.#answerResets({ ok: true });
        this.#settle();
        return;
      case 'events':
        state.applyEvents(message.events);
        this.#settle();
        return;
      case 'resync':
        // A snapshot follows and replaces the replica.
        return;
      case 'history':
        state.beginHistory(message);
        return;
      case 'historyBase':
        state.applyHistoryBase(message.seq, message.snapshot);
        return;
      case 'historyPage':
        state.applyHistoryPage(message.from, message.events);
        return;
      case 'result': {
        const pending = this.#pending.get(message.id);
        if (pending === undefined) return;
        pending.outcome = {
          id: message.id,
          fn: message.fn,
          ok: message.ret === 0,
          ret: message.ret,
          retName: message.retName,
          events: message.events,
          durationNs: message.durationNs,
          at: environment.now(),
          ...(message.message === undefined ? {} : { message: message.message }),
          ...(message.messageCode === undefined ? {} : { messageCode: message.messageCode }),
          ...(message.out === undefined ? {} : { out: message.out }),
        };
        // A loop, not Math.max(...events): resetting a full device answers with more seqs than a call takes arguments.
        let last = 0;
        for (const seq of message.events) if (seq > last) last = seq;
        pending.waitFor = last;
        this.#settle();
        return;
      }
      case 'error': {
        if (message.code === 'protocol-mismatch') {
          this.#stopped = true;
          state.setConnection({ status: 'incompatible', message: message.message, ...coded(message) });
          return;
        }
        if (message.code === 'driver-busy' && !this.#welcomed) {
          // Shown in the connection panel (with a way to watch instead), not as a notice.
          this.#driverBusy = { message: message.message, ...coded(message) };
          return;
        }
        const reset = message.id === undefined ? undefined : this.#resets.get(message.id);
        if (reset !== undefined && message.id !== undefined) {
          // The refusal is also a notice, as any error is; the caller gets it to clear its own "resetting".
          this.#resets.delete(message.id);
          reset({ ok: false, message: message.message, ...coded(message) });
        }
        const pending = message.id === undefined ? undefined : this.#pending.get(message.id);
        if (pending !== undefined && message.id !== undefined) {
          this.#finish(message.id, pending, {
            id: message.id,
            fn: pending.fn,
            ok: false,
            message: message.message,
            ...coded(message),
            events: [],
            at: environment.now(),
          });
          return;
        }
        state.pushNotice(
          { type: 'notice', level: 'warn', code: message.code, message: message.message, ...coded(message) },
          environment.now(),
        );
        return;
      }
      case 'notice':
        if (message.code === 'driver-after-teardown' && !this.#welcomed) {
          // Shown in the connection panel until the welcome comes, not as a notice.
          state.setConnection({ status: 'waiting-teardown', message: message.message, ...coded(message) });
          return;
        }
        state.pushNotice(message, environment.now());
        return;
      case 'presence':
        state.setPresence({
          driver: message.driver,
          driverWaiting: message.driverWaiting,
          driverEnding: message.driverEnding,
          viewers: message.viewers,
        });
        return;
      case 'followState':
        state.receiveFollowState(message.state, message.driver);
        return;
      case 'runs':
        state.setRuns(message.runs);
        state.setProcessFilter(filterAfterRuns(state.processFilter, message.runs));
        return;
      case 'pong':
        return;
    }
  }

  /**
   * A driver publishes its playground and lesson position whenever they change, and at once on
   * every welcome (the agent may have restarted and lost them).
   */
  #publishFollowing(): void {
    const { store } = this.#options;
    this.#stopFollowing ??= store.subscribe((now, before) => {
      if (now.ownPlayground !== before.ownPlayground || now.ownLesson !== before.ownLesson) this.#offerFollowing();
    });
    this.#follow.forget();
    this.#offerFollowing();
  }

  #offerFollowing(): void {
    const state = this.#options.store.getState();
    if (!this.#welcomed || state.session?.role !== 'driver' || state.ownPlayground === null) return;
    this.#follow.offer({ ...state.ownPlayground, lesson: state.ownLesson });
  }

  /** Resolves calls whose results arrived and whose events the replica now holds. */
  #settle(): void {
    const seq = this.#options.store.getState().timeline?.lastSeq ?? 0;
    for (const [id, pending] of this.#pending) {
      if (pending.outcome !== undefined && (pending.waitFor ?? 0) <= seq) this.#finish(id, pending, pending.outcome);
    }
  }

  #finish(id: number, pending: PendingCall, outcome: CallOutcome): void {
    this.#pending.delete(id);
    const state = this.#options.store.getState();
    state.recordOutcome(outcome);
    state.setPending(this.#pending.size);
    pending.resolve(outcome);
  }

  /**
   * Calls an ACL function on the agent. Resolves once the result is in and the replica holds every
   * event the call caused, so the views already show its effect.
   */
  call<F extends AclFunctionName>(fn: F, args: WireArgs<F>, process?: number): Promise<CallOutcome> {
    return this.callUnchecked(fn, args, process);
  }

  /**
   * The one untyped way in, for arguments a person typed into a generated form (the action form, the
   * memcpy and VMM builders): their names come from the catalogue, their values are judged by the
   * agent, as every call on the wire is.
   */
  callUnchecked(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, process?: number): Promise<CallOutcome> {
    const id = this.#nextId++;
    const at = this.#options.environment.now();
    if (this.#socket === undefined || !this.#welcomed) {
      return Promise.resolve({ id, fn, ok: false, ...withText(text('not-connected')), events: [], at });
    }
    return new Promise((resolve) => {
      this.#pending.set(id, { fn, resolve });
      this.#options.store.getState().setPending(this.#pending.size);
      this.send({ type: 'call', id, fn, args: { ...args }, ...(process === undefined ? {} : { process }) });
    });
  }

  /** Asks the agent for a fresh host (driver only); resolves once it is in, or with the refusal. */
  reset(options: { profile?: string; devices?: number; seed?: number } = {}): Promise<ResetOutcome> {
    if (this.#socket === undefined || !this.#welcomed) return Promise.resolve({ ok: false, ...withText(text('not-connected')) });
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#resets.set(id, resolve);
      this.send({ type: 'reset', id, ...options });
    });
  }

  /** Every reset in flight ends with `outcome` (the agent resets one at a time, and a reset snapshot answers them all). */
  #answerResets(outcome: ResetOutcome): void {
    const waiting = [...this.#resets.values()];
    this.#resets.clear();
    for (const resolve of waiting) resolve(outcome);
  }

  /** The socket closed. Find out whether the token is at fault before retrying. */
  #lost(): void {
    // Calls and resets in flight are lost with the socket: answer them so no caller waits forever.
    this.#answerResets({ ok: false, ...withText(text('connection-lost')) });
    for (const [id, pending] of this.#pending) {
      this.#finish(id, pending, {
        id,
        fn: pending.fn,
        ok: false,
        ...withText(text('connection-lost')),
        events: [],
        at: this.#options.environment.now(),
      });
    }
    if (this.#welcomed || this.#driverBusy !== undefined) {
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
    const retryAt = environment.now() + delay;
    const busy = this.#driverBusy;
    this.#driverBusy = undefined;
    store
      .getState()
      .setConnection(
        busy === undefined ? { status: 'unreachable', attempt, retryAt } : { status: 'driver-busy', ...busy, attempt, retryAt },
      );
    this.#retryTimer = environment.setTimeout(() => {
      this.#retryTimer = undefined;
      this.#connect();
    }, delay);
  }
}
