/**
 * `array.fill(value, start, end)` for the frame table's typed arrays, with 0 ≤ start ≤ end ≤ length
 * (no relative indices). `TypedArray#fill` is a call into the runtime that costs as much as filling
 * a few dozen elements by hand, and most claims and releases touch one to a few frames or pages:
 * short ranges are filled in a loop, long ones by `fill`. fill-range.test.ts holds it to `fill`.
 */
export function fillRange(array: Uint8Array | Uint16Array | Int32Array, value: number, start: number, end: number): void {
  if (end - start > SHORT) {
    array.fill(value, start, end);
    return;
  }
  for (let i = start; i < end; i += 1) array[i] = value;
}

/** Below this many elements a loop beats the runtime call (measured on Node 20). */
const SHORT = 32;
