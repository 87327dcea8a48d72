/**
 * Which replica seq holds the state right after a line of the playground's code ran, so clicking
 * an executed line moves the time cursor there, and a time cursor set elsewhere can point back at
 * the line that produced its state.
 *
 * Points come in execution order from two sources: every runtime call (paired with the seq the
 * replica reached when its answer arrived) and every finished step (the paused-before line ran;
 * the replica's last seq after it). A line run inside a long run() without any call has no point
 * of its own: it changed no host state, so it takes the state after the closest line above it
 * that has one, or the state the execution started from.
 */

export interface SeqPoint {
  /** 1-based line of the code; 0 for the scenario's setup. */
  readonly line: number;
  /** The replica's last seq right after the line ran. */
  readonly seq: number;
}

/** A call as the interpreter logged it (`Execution.calls`). */
export interface LoggedCall {
  readonly fn: string;
  readonly line: number;
  readonly inSetup: boolean;
}

/** A call the agent answered, with the seq its events reached. */
export interface AnsweredCall {
  readonly fn: string;
  readonly seq: number;
}

/**
 * Pairs the interpreter's call log with the agent's answers, both in order. The log has extra
 * entries for calls refused before reaching the runtime (a NULL out-pointer, DM-2): those changed
 * nothing and take the seq reached so far.
 */
export function pairCalls(logged: readonly LoggedCall[], answered: readonly AnsweredCall[], seqBefore: number): SeqPoint[] {
  const points: SeqPoint[] = [];
  let next = 0;
  let seq = seqBefore;
  for (const entry of logged) {
    const answer = answered[next];
    if (answer !== undefined && answer.fn === entry.fn) {
      seq = answer.seq;
      next += 1;
    }
    points.push({ line: entry.inSetup ? 0 : entry.line, seq });
  }
  return points;
}

export class StepSeqMap {
  readonly #points: SeqPoint[] = [];
  readonly #latest = new Map<number, number>();
  #start: number | undefined;

  /** The seq the execution started from (before its setup). */
  begin(seq: number): void {
    this.#points.length = 0;
    this.#latest.clear();
    this.#start = seq;
  }

  get start(): number | undefined {
    return this.#start;
  }

  get points(): readonly SeqPoint[] {
    return this.#points;
  }

  add(points: readonly SeqPoint[]): void {
    for (const point of points) {
      this.#points.push(point);
      this.#latest.set(point.line, point.seq);
    }
  }

  /**
   * The seq right after `line` last ran, among `executed` lines; undefined when it never ran. A line
   * without a point of its own takes the closest line above it that has one (see the file comment).
   */
  seqAfter(line: number, executed: (line: number) => boolean): number | undefined {
    if (!executed(line)) return undefined;
    const own = this.#latest.get(line);
    if (own !== undefined) return own;
    let best: { line: number; seq: number } | undefined;
    for (const [other, seq] of this.#latest) {
      if (other > 0 && other < line && (best === undefined || other > best.line)) best = { line: other, seq };
    }
    return best?.seq ?? this.#latest.get(0) ?? this.#start;
  }

  /**
   * The code line that produced the state at `seq`: the first point that reached the latest seq at
   * or before it (lines after it that changed nothing do not claim it). Undefined before the code
   * ran, or when the setup produced it.
   */
  lineAt(seq: number): number | undefined {
    let index = this.#points.length - 1;
    while (index >= 0 && (this.#points[index]?.seq ?? 0) > seq) index -= 1;
    const reached = this.#points[index]?.seq;
    if (reached === undefined) return undefined;
    while (index > 0 && this.#points[index - 1]?.seq === reached) index -= 1;
    const line = this.#points[index]?.line;
    return line === undefined || line === 0 ? undefined : line;
  }
}
