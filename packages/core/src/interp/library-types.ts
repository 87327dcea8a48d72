import type { SyntaxNode } from '@lezer/common';
import { baseType, type CType, VOID } from './c-type-model.ts';
import { child, kids, type ParseContext, unknownTypeMessage } from './parse-context.ts';

/*
 * Types of the C++ library as ACL programs use them: `std::vector<T>` as a host buffer,
 * `std::string` for messages, the `std::` spellings of the C integer types, and the file streams
 * (whose reads and writes are not modeled). Threads and their synchronisation are left to
 * `pagelens run`.
 */

const THREAD_TYPES: Readonly<Record<string, string>> = {
  thread: 'A thread (std::thread)',
  jthread: 'A thread (std::jthread)',
  mutex: 'Thread synchronisation (std::mutex)',
  recursive_mutex: 'Thread synchronisation (std::recursive_mutex)',
  lock_guard: 'Thread synchronisation (std::lock_guard)',
  unique_lock: 'Thread synchronisation (std::unique_lock)',
  condition_variable: 'Thread synchronisation (std::condition_variable)',
  atomic: 'Atomics for threads (std::atomic)',
  future: 'A thread (std::future)',
  shared_future: 'A thread (std::shared_future)',
  promise: 'A thread (std::promise)',
  once_flag: 'std::call_once (its std::once_flag)',
  function: 'A function object (std::function)',
};

/** Class templates of the C++ library that ACL programs use besides std::vector, by the plain name `using namespace std` allows. */
const STD_TEMPLATES: ReadonlySet<string> = new Set([
  ...['map', 'unordered_map', 'multimap', 'set', 'unordered_set', 'list', 'deque', 'queue', 'stack', 'array', 'pair', 'tuple'],
  ...['shared_ptr', 'unique_ptr', 'weak_ptr', 'optional', 'variant', 'greater', 'less', 'function'],
]);

/** File streams: declared and used as not modeled (PageLens runs no file system). */
export const FILE_STREAM_TYPES: ReadonlySet<string> = new Set(['ifstream', 'ofstream', 'fstream']);

/** `map<K, V>`, `map<K, V, greater<K>>`, `unordered_map<K, V>`. */
function mapType(ctx: ParseContext, node: SyntaxNode, name: string, descriptorOf: (node: SyntaxNode) => CType): CType {
  const args = child(node, 'TemplateArgumentList');
  const [key, value, compare, ...rest] = args === undefined ? [] : kids(args);
  if (key?.name !== 'TypeDescriptor' || value?.name !== 'TypeDescriptor' || rest.length > 0)
    return ctx.unsupported(
      node,
      `The type "${ctx.slice(node)}" (PageLens reads std::${name}<Key, Value> and a std::greater or std::less order)`,
    );
  const order = compare === undefined ? 'less' : /^(?:std::)?(greater|less)\s*</.exec(ctx.slice(compare))?.[1];
  if (order === undefined || (name === 'unordered_map' && compare !== undefined))
    return ctx.unsupported(
      compare ?? node,
      `The order "${ctx.slice(compare ?? node)}" of std::${name} (PageLens reads std::greater and std::less)`,
    );
  return {
    k: 'map',
    key: descriptorOf(key),
    value: descriptorOf(value),
    order: name === 'unordered_map' ? 'hash' : (order as 'less' | 'greater'),
  };
}

export function libraryType(ctx: ParseContext, node: SyntaxNode, descriptorOf: (node: SyntaxNode) => CType): CType {
  const scoped = node.name === 'TemplateType' ? child(node, 'ScopedTypeIdentifier') : node;
  const text = ctx.slice(scoped ?? node).replace(/\s+/g, '');
  const std = /^(?:::)?std::(\w+)$/.exec(text)?.[1];
  const last = text.split('::').at(-1) ?? text;
  const thread = std === undefined ? undefined : THREAD_TYPES[std];
  if (thread !== undefined) return ctx.outOfScope(node, thread);
  if (node.name === 'TemplateType') {
    // `map<…>`, `vector<…>` after `using namespace std;` are the library's.
    const plain = scoped === undefined ? ctx.slice(child(node, 'TypeIdentifier') ?? node) : text;
    if (std === 'vector' || plain === 'vector') {
      const args = child(node, 'TemplateArgumentList');
      const [element] = args === undefined ? [] : kids(args);
      if (element === undefined || element.name !== 'TypeDescriptor') return ctx.unsupported(node, `The type "${ctx.slice(node)}"`);
      return { k: 'vector', of: descriptorOf(element) };
    }
    const mapName = std ?? plain.replace(/^std::/, '');
    if (mapName === 'optional') {
      const [item] = kids(child(node, 'TemplateArgumentList') ?? node);
      if (item?.name !== 'TypeDescriptor') return ctx.unsupported(node, `The type "${ctx.slice(node)}"`);
      return { k: 'optional', of: descriptorOf(item) };
    }
    if (mapName === 'map' || mapName === 'unordered_map') return mapType(ctx, node, mapName, descriptorOf);
    if (std !== undefined || STD_TEMPLATES.has(plain))
      return ctx.outOfScope(
        node,
        `The C++ library type "${ctx.slice(node)}" (PageLens models std::vector, std::string, std::map and std::unordered_map of the library)`,
      );
    // A template the code defines stops at its definition; one used here comes from a header or another library.
    return ctx.outOfScope(node, `The template type "${ctx.slice(node)}" (from a header or another library)`);
  }
  if (std === 'string') return { k: 'string' };
  if (std === 'stringstream' || std === 'ostringstream') return { k: 'string', stream: std };
  if (std !== undefined && FILE_STREAM_TYPES.has(std)) return { k: 'ptr', to: VOID, name: `std::${std}` };
  const known = ctx.types.get(last) ?? baseType([last]);
  if (known !== undefined) return known;
  const at = ctx.span(node);
  return ctx.fail(node, 'unsupported', unknownTypeMessage(text, at.line, at.column));
}

/** Calls the playground leaves to `pagelens run`, by the name the code writes (qualified or, after `using namespace std`, plain). */
export const OUT_OF_SCOPE_CALLS: ReadonlyMap<string, string> = new Map([
  ['std::call_once', 'std::call_once'],
  ['call_once', 'std::call_once'],
  ['std::async', 'A thread (std::async)'],
  ['pthread_create', 'A thread (pthread_create)'],
  ['pthread_join', 'A thread (pthread_join)'],
  ['std::this_thread::sleep_for', 'Sleeping a thread (std::this_thread::sleep_for)'],
]);
