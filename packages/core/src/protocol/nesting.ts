/**
 * How deeply a parsed JSON value nests, measured without recursion, so that a hostile message
 * (1 MiB of `[` is 524,288 levels) is refused before anything recursive walks it: zod, JSON.stringify
 * and String() of a nested array all recurse and overflow the stack at a few thousand levels.
 * JSON.parse itself does not (V8, SpiderMonkey and JavaScriptCore parse with an explicit stack).
 *
 * Measured on the parsed value rather than on the text: walking a call costs about a tenth of
 * JSON.parse of it, a scan of the text about a third.
 */

/**
 * Deepest nesting a client message may have. The deepest legitimate one is 6 levels: a call
 * (1) → args (2) → an aclrtMallocConfig (3) → its attrs (4) → an attribute (5) → its value (6);
 * a desc array's location or rsv bytes reach 5. 32 leaves room for what the catalogue may add.
 */
export const MAX_CLIENT_NESTING = 32;

/**
 * Deepest nesting an agent message or a journal line may have. These carry client args two levels
 * further down than a call does (an events message → events → a call event → args, against
 * call → args), so this must stay above MAX_CLIENT_NESTING + 2. The deepest today reach about 7
 * levels (a call event's desc[].location, a snapshot's reasons).
 */
export const MAX_AGENT_NESTING = 64;

/**
 * The deepest nesting of arrays and objects in `value`: 0 for a scalar, 1 for `[]` or `{}`, 2 for
 * `[{}]`. `value` must be a tree, as JSON.parse makes (a cycle would never end). Linear in the
 * number of values; memory grows with the width, never with the call stack.
 */
export function jsonNesting(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let deepest = 0;
  for (let node = nodes.pop(); node !== undefined; node = nodes.pop()) {
    const depth = depths.pop() ?? 0;
    if (depth > deepest) deepest = depth;
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index += 1) {
        const item: unknown = node[index];
        if (item !== null && typeof item === 'object') {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in node) {
        const item: unknown = Reflect.get(node, key);
        if (item !== null && typeof item === 'object') {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return deepest;
}

/** Why `value` nests too deeply to be read, or undefined when it nests at most `limit` levels. */
export function nestingProblem(value: unknown, limit: number, what = 'message'): string | undefined {
  const depth = jsonNesting(value);
  return depth <= limit ? undefined : `${what} nests ${depth} levels deep; at most ${limit} allowed`;
}
