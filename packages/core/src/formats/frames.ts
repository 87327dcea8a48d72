import { FormatError } from './format-error.ts';
import { kindOf, type PickleDict, type PickleValue } from './pickle-values.ts';
import type { Frame, StackFrames } from './snapshot-types.ts';

const checked = new WeakSet<StackFrames>();

function isFrame(value: PickleValue): value is PickleDict & Frame {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    typeof value.filename === 'string' &&
    typeof value.line === 'number' &&
    typeof value.name === 'string'
  );
}

function allFrames(stack: StackFrames): stack is readonly (PickleDict & Frame)[] {
  return checked.has(stack) || stack.every(isFrame);
}

/**
 * A stack's frames, innermost first, checked on first use (snapshot-normalize.ts says why not
 * before); throws FormatError naming the first frame that is not {filename: str, line: int, name: str}.
 */
export function framesOf(stack: StackFrames): readonly Frame[] {
  if (allFrames(stack)) {
    checked.add(stack);
    return stack;
  }
  const index = stack.findIndex((frame) => !isFrame(frame));
  const frame = stack[index];
  const missing =
    typeof frame === 'object' && frame !== null && !Array.isArray(frame) && !(frame instanceof Uint8Array)
      ? ['filename', 'line', 'name'].filter((key) => !Object.hasOwn(frame, key))
      : [];
  throw new FormatError(
    `stack frame ${index}: expected a frame {filename: str, line: int, name: str}, ` +
      (missing.length > 0 ? `missing ${missing.join(', ')}` : `found ${kindOf(frame)} or a field of the wrong kind`),
  );
}
