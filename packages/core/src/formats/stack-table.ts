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
 * Interns the stacks; returns the table and, per input stack, its id (or NO_STACK / BAD_STACK).
 * A frame is checked (framesOf) the first time it is seen; after that its index is all that is
 * looked up, since frames are shared objects (the pickle memo) across a file's stacks.
 */
export function internStacks(stacks: readonly StackFrames[]): { table: StackTable; ids: Int32Array } {
  const frameIndex = new Map<unknown, number>();
  const frames: Frame[] = [];
  const stackIndex = new Map<StackFrames, number>();
  const starts = new IntRun();
  starts.push(0);
  const frameIds = new IntRun();
  const ids = new Int32Array(stacks.length);
  stacks.forEach((stack, i) => {
    if (stack.length === 0) {
      ids[i] = NO_STACK;
      return;
    }
    const known = stackIndex.get(stack);
    if (known !== undefined) {
      ids[i] = known;
      return;
    }
    const mark = frameIds.length;
    for (const frame of stack) {
      let index = frameIndex.get(frame);
      if (index === undefined) {
        let checked: Frame | undefined;
        try {
          checked = framesOf([frame])[0];
        } catch (error) {
          if (!(error instanceof FormatError)) throw error;
        }
        if (checked === undefined) {
          frameIds.length = mark;
          stackIndex.set(stack, BAD_STACK);
          ids[i] = BAD_STACK;
          return;
        }
        index = frames.length;
        frames.push({ filename: checked.filename, line: checked.line, name: checked.name });
        frameIndex.set(frame, index);
      }
      frameIds.push(index);
    }
    const id = starts.length - 1;
    starts.push(frameIds.length);
    stackIndex.set(stack, id);
    ids[i] = id;
  });
  return { table: { frames, starts: starts.done(), frameIds: frameIds.done() }, ids };
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
