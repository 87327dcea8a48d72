import { FormatError } from './format-error.ts';
import { framesOf } from './frames.ts';
import type { Frame, StackFrames } from './snapshot-types.ts';

/**
 * Stacks interned: each distinct frame once, each distinct stack once as a run of frame indices, in
 * typed arrays. A worker sends a table like this to the page instead of the stacks themselves:
 * cloning millions of frame references (tens of frames per block, shared through the pickle memo)
 * took seconds on the page's thread, the arrays transfer at no cost.
 *
 * Stack `s` is `frameIds[starts[s] … starts[s + 1])`, innermost first.
 */
export interface StackTable {
  readonly frames: readonly Frame[];
  readonly starts: Int32Array;
  readonly frameIds: Int32Array;
}

/** No stack recorded; a stack that is not a list of frames (framesOf refused it). */
export const NO_STACK = -1;
export const BAD_STACK = -2;

/** A growing Int32Array: a 1 M-event file's blocks hold ~19 M frame references, too many for a plain array to grow by. */
class IntRun {
  values = new Int32Array(1024);
  length = 0;

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Int32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length] = value;
    this.length += 1;
  }

  done(): Int32Array {
    return this.values.slice(0, this.length);
  }
}

/**
 * Stacks interned one at a time, as a session is built: each block keeps the id, so the stacks'
 * frame references (some 19 M of them in a 1 M-entry file) never pile up beside the table. A frame
 * is checked (framesOf) the first time it is seen; after that its index is all that is looked up,
 * since frames are shared objects (the pickle memo) across a file's stacks.
 */
export class StackInterner {
  readonly #frameIndex = new Map<unknown, number>();
  readonly #frames: Frame[] = [];
  readonly #stackIndex = new Map<StackFrames, number>();
  readonly #starts = new IntRun();
  readonly #frameIds = new IntRun();

  constructor() {
    this.#starts.push(0);
  }

  /** The stack's id, NO_STACK when it is empty, BAD_STACK when it is not a list of frames. */
  add(stack: StackFrames): number {
    if (stack.length === 0) return NO_STACK;
    const known = this.#stackIndex.get(stack);
    if (known !== undefined) return known;
    const mark = this.#frameIds.length;
    for (const frame of stack) {
      let index = this.#frameIndex.get(frame);
      if (index === undefined) {
        let checked: Frame | undefined;
        try {
          checked = framesOf([frame])[0];
        } catch (error) {
          if (!(error instanceof FormatError)) throw error;
        }
        if (checked === undefined) {
          this.#frameIds.length = mark;
          this.#stackIndex.set(stack, BAD_STACK);
          return BAD_STACK;
        }
        index = this.#frames.length;
        this.#frames.push({ filename: checked.filename, line: checked.line, name: checked.name });
        this.#frameIndex.set(frame, index);
      }
      this.#frameIds.push(index);
    }
    const id = this.#starts.length - 1;
    this.#starts.push(this.#frameIds.length);
    this.#stackIndex.set(stack, id);
    return id;
  }

  /** The table of every stack added so far. */
  table(): StackTable {
    return { frames: [...this.#frames], starts: this.#starts.done(), frameIds: this.#frameIds.done() };
  }
}

/** The frames of stack `id`, innermost first; [] for NO_STACK, BAD_STACK or an id the table lacks. */
export function stackFrames(table: StackTable, id: number): Frame[] {
  if (id < 0 || id + 1 >= table.starts.length) return [];
  const from = table.starts[id] ?? 0;
  const to = table.starts[id + 1] ?? from;
  const frames: Frame[] = [];
  for (let i = from; i < to; i += 1) {
    const frame = table.frames[table.frameIds[i] ?? -1];
    if (frame !== undefined) frames.push(frame);
  }
  return frames;
}
