/**
 * The one requestAnimationFrame owner: canvas layers ask for a redraw and each draws at most once
 * per frame, however many changes arrived in between.
 */
export class FrameScheduler {
  readonly #pending = new Set<() => void>();
  #handle: number | undefined;
  readonly #request: (callback: () => void) => number;

  constructor(request: (callback: () => void) => number = (callback) => requestAnimationFrame(callback)) {
    this.#request = request;
  }

  schedule(draw: () => void): void {
    this.#pending.add(draw);
    if (this.#handle !== undefined) return;
    this.#handle = this.#request(() => {
      this.#handle = undefined;
      const draws = [...this.#pending];
      this.#pending.clear();
      for (const run of draws) run();
    });
  }

  cancel(draw: () => void): void {
    this.#pending.delete(draw);
  }
}

export const frameScheduler = new FrameScheduler();
