/**
 * The in-page half of the web-import suite: installed as an init script, it times, from inside the
 * page, what a person waits for after choosing a file or pressing a key, to the end of the frame that
 * shows it. It only listens (capture listeners, a MutationObserver, requestAnimationFrame polling)
 * and adds a message listener to workers the app creates, to timestamp the import worker's replies.
 *
 * "End of the frame": a MessageChannel message posted from a requestAnimationFrame callback runs
 * after that frame's rendering, so it marks when the frame that shows a change has been produced;
 * conditions are checked there, so the frame measured is the first that shows the change. A
 * page-map paint that lands one frame after the change (its own scheduler's frame) is waited for.
 *
 * Bench code is typed for Node (no DOM library): the page's globals are read through Reflect.get
 * into the few shapes below. The function is sent as source text, so it may use nothing from outside.
 */

/** A reading of the open, in ms on the page's clock (performance.now()). */
export interface OpenTimes {
  readonly chosenAt: number;
  /** The commit that showed the import banner, and its data-import-phase then ("" when absent). */
  readonly bannerAt: number;
  readonly phaseAtBanner: string;
  /** End of the frame with the banner and a page-map paint after it: the first view. */
  readonly firstViewAt: number;
  /** The banner's phase when the open ended: "complete", "summarised", or a failure and the import's error message. */
  readonly endPhase: string;
  /** When the banner said "complete" or "summarised" (or carried no phase), or that the open failed, and the end of the frame showing it. */
  readonly completeAt: number;
  readonly completeEndAt: number;
  /** The page map legend's huge-page count at the first view and when complete. */
  readonly hugeAtFirstView: string;
  readonly hugeAtComplete: string;
  /** The import worker's replies as they reached the page: type, arrival time, bytes read. */
  readonly replies: readonly { readonly type: string; readonly at: number; readonly bytesRead: number }[];
}

/** What a key press took: keydown (its event time) → end of the frame showing the result. */
export interface KeyTiming {
  readonly ms: number;
  /** Whether the page map painted after the key (part of the frame measured). */
  readonly mapPainted: boolean;
}

/** What the probe's condition for a key waits for. */
export type KeyWait = { readonly kind: 'selector'; readonly selector: string; readonly mapPaint: boolean } | { readonly kind: 'cursor' };

export interface ImportProbe {
  open(): Promise<OpenTimes>;
  /** Arms for the next keydown; `result()` resolves once its change is on screen. */
  arm(wait: KeyWait): void;
  result(): Promise<KeyTiming>;
}

export function installImportProbe(): void {
  interface ProbeElement {
    getAttribute(name: string): string | null;
    readonly textContent: string | null;
  }
  interface ProbeWindow {
    readonly document: {
      querySelector(selector: string): ProbeElement | null;
      readonly documentElement: unknown;
      addEventListener(type: string, listener: (event: { target: unknown; timeStamp: number }) => void, capture: boolean): void;
    };
    addEventListener(type: string, listener: (event: { timeStamp: number }) => void, capture: boolean): void;
    requestAnimationFrame(callback: () => void): number;
    readonly performance: { now(): number };
    readonly __pagelensPageMap?: { lastPaint(): { at: number; count: number } };
    Worker: new (url: unknown, options?: unknown) => { addEventListener(type: string, listener: (event: { data: unknown }) => void): void };
    readonly MessageChannel: new () => {
      port1: { onmessage: (() => void) | null };
      port2: { postMessage(message: unknown): void };
    };
    readonly MutationObserver: new (
      callback: () => void,
    ) => { observe(target: unknown, options: { subtree: boolean; childList: boolean; attributes: boolean }): void };
  }
  const w: ProbeWindow = Reflect.get(globalThis, 'window');
  const doc = w.document;
  const BANNER = '[data-testid="import-banner"]';
  const paint = (): { at: number; count: number } => w.__pagelensPageMap?.lastPaint() ?? { at: Number.NEGATIVE_INFINITY, count: 0 };
  const huge = (): string => doc.querySelector('[data-testid="legend-count-huge"]')?.textContent ?? '';

  /** Calls back with the time at the end of the next frame: after its rAF callbacks and its rendering. */
  const frameEnd = (done: (at: number) => void): void => {
    w.requestAnimationFrame(() => {
      const channel = new w.MessageChannel();
      channel.port1.onmessage = () => done(w.performance.now());
      channel.port2.postMessage(0);
    });
  };
  /**
   * Checks `ready()` at the end of every frame; resolves at the end of the first frame where it holds,
   * or of the frame after it when the page map paints in that one (its scheduler may run a frame
   * after the commit that asked for it).
   */
  const settle = (ready: () => boolean): Promise<{ at: number; mapPainted: boolean }> =>
    new Promise((resolve) => {
      const check = (at: number): void => {
        if (!ready()) {
          frameEnd(check);
          return;
        }
        const count = paint().count;
        frameEnd((next) => {
          const late = paint().count !== count;
          resolve({ at: late ? next : at, mapPainted: late });
        });
      };
      frameEnd(check);
    });

  // The import worker's replies, timestamped as they arrive on the main thread. This listener is the
  // first to read event.data, so Chromium's lazy deserialisation of a reply runs (and is timed and
  // profiled) here rather than in the app's onmessage: the same cost, in another function.
  const replies: { type: string; at: number; bytesRead: number }[] = [];
  const NativeWorker = w.Worker;
  w.Worker = class extends NativeWorker {
    constructor(url: unknown, options?: unknown) {
      super(url, options);
      this.addEventListener('message', (event) => {
        const type: unknown = Reflect.get(Object(event.data), 'type');
        const bytesRead: unknown = Reflect.get(Object(event.data), 'bytesRead');
        replies.push({ type: String(type), at: w.performance.now(), bytesRead: typeof bytesRead === 'number' ? bytesRead : 0 });
      });
    }
  };

  // The open: from the file input's change event to the banner, the first view, and complete.
  let resolveOpen: (times: OpenTimes) => void = () => undefined;
  const opened = new Promise<OpenTimes>((resolve) => {
    resolveOpen = resolve;
  });
  const watchOpen = (chosenAt: number): void => {
    let bannerAt = Number.NaN;
    let phaseAtBanner = '';
    let completeAt = Number.NaN;
    let endPhase = '';
    const look = (): void => {
      const banner = doc.querySelector(BANNER);
      if (banner === null) return;
      const phase = banner.getAttribute('data-import-phase');
      if (Number.isNaN(bannerAt)) {
        bannerAt = w.performance.now();
        phaseAtBanner = phase ?? '';
      }
      // The open ends complete (a banner without a phase, as before the app marked phases, is too), or
      // summarised (a file too large to keep its trace); it fails when the trace broke or was cancelled.
      if (!Number.isNaN(completeAt)) return;
      if (phase === null || phase === 'complete' || phase === 'summarised') {
        completeAt = w.performance.now();
        endPhase = phase ?? 'complete';
      } else if (phase === 'trace-failed' || phase === 'cancelled') {
        completeAt = w.performance.now();
        endPhase = `${phase}: ${doc.querySelector('[data-testid="import-error-message"]')?.textContent ?? ''}`;
      }
    };
    new w.MutationObserver(look).observe(doc.documentElement, { subtree: true, childList: true, attributes: true });
    void settle(() => !Number.isNaN(bannerAt) && paint().at >= bannerAt).then((first) => {
      const hugeAtFirstView = huge();
      void settle(() => !Number.isNaN(completeAt)).then((complete) => {
        resolveOpen({
          chosenAt,
          bannerAt,
          phaseAtBanner,
          firstViewAt: first.at,
          completeAt,
          endPhase,
          completeEndAt: Math.max(first.at, complete.at),
          hugeAtFirstView,
          hugeAtComplete: huge(),
          replies,
        });
      });
    });
  };
  doc.addEventListener(
    'change',
    (event) => {
      const input: unknown = event.target;
      if (typeof Reflect.get(Object(input), 'getAttribute') !== 'function') return;
      if (Reflect.apply(Reflect.get(Object(input), 'getAttribute'), input, ['data-testid']) === 'open-file-input')
        watchOpen(event.timeStamp);
    },
    true,
  );

  // Keys: armed before a press, measured from that keydown's event time.
  let armed: { wait: KeyWait; cursorBefore: string | null; resolve: (timing: KeyTiming) => void } | undefined;
  let pending: Promise<KeyTiming> | undefined;
  const valueText = (): string | null => doc.querySelector('[data-testid="tt-slider"]')?.getAttribute('aria-valuetext') ?? null;
  w.addEventListener(
    'keydown',
    (event) => {
      const key = armed;
      if (key === undefined) return;
      armed = undefined;
      const down = event.timeStamp;
      const { wait } = key;
      const ready =
        wait.kind === 'cursor'
          ? () => valueText() !== key.cursorBefore
          : () => doc.querySelector(wait.selector) !== null && (!wait.mapPaint || paint().at >= down);
      void settle(ready).then((end) => key.resolve({ ms: end.at - down, mapPainted: end.mapPainted || paint().at >= down }));
    },
    true,
  );
  const probe: ImportProbe = {
    open: () => opened,
    arm: (wait) => {
      pending = new Promise((resolve) => {
        armed = { wait, cursorBefore: valueText(), resolve };
      });
    },
    result: () => pending ?? Promise.reject(new Error('no key was armed')),
  };
  Reflect.set(globalThis, '__pagelensImportProbe', probe);
}
