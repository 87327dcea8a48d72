import type { SyntaxNode } from '@lezer/common';
import type { Expr } from './ast.ts';
import { baseType, type CType, type SmartPtrType, VOID } from './c-type-model.ts';
import type { Span } from './diagnostics.ts';
import { foreignLibraryOf } from './foreign-libraries.ts';
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
  shared_mutex: 'Thread synchronisation (std::shared_mutex)',
  shared_lock: 'Thread synchronisation (std::shared_lock)',
  scoped_lock: 'Thread synchronisation (std::scoped_lock)',
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

/** The smart pointers PageLens runs, by their library names (smart-pointers.ts runs their ownership). */
const SMART_POINTERS: ReadonlyMap<string, SmartPtrType['kind']> = new Map([
  ['shared_ptr', 'shared'],
  ['unique_ptr', 'unique'],
]);

/** The functions that make one: `std::make_shared<T>(args)` is `std::shared_ptr<T>(new T(args))`. */
const SMART_MAKERS: ReadonlyMap<string, SmartPtrType['kind']> = new Map([
  ['make_shared', 'shared'],
  ['make_unique', 'unique'],
]);

/** `shared_ptr<T>`, `unique_ptr<T>`; a custom deleter type or an array (`unique_ptr<T[]>`) is not run. */
function smartType(ctx: ParseContext, node: SyntaxNode, kind: SmartPtrType['kind'], descriptorOf: (node: SyntaxNode) => CType): CType {
  const [item, ...rest] = kids(child(node, 'TemplateArgumentList') ?? node);
  if (item?.name !== 'TypeDescriptor' || rest.length > 0 || /\[\s*\]/.test(ctx.slice(item)))
    return ctx.unsupported(node, `The type "${ctx.slice(node)}" (PageLens reads std::${kind}_ptr<T>, without a deleter type or T[])`);
  return { k: 'smart', kind, of: descriptorOf(item) };
}

/**
 * `std::make_shared<T>(args)` / `make_unique<T>(args)` (the callee is `name<T>`): the smart pointer
 * that owns `new T(args)`; undefined for another template call.
 */
export function smartMaker(
  ctx: ParseContext,
  callee: SyntaxNode,
  args: readonly Expr[],
  span: Span,
  descriptorOf: (node: SyntaxNode) => CType,
): Expr | undefined {
  const [name, templateArgs] = kids(callee);
  const kind =
    name === undefined
      ? undefined
      : SMART_MAKERS.get(
          ctx
            .slice(name)
            .replace(/\s+/g, '')
            .replace(/^(?:::)?std::/, ''),
        );
  if (kind === undefined) return undefined;
  const [item, ...rest] = templateArgs === undefined ? [] : kids(templateArgs);
  if (item?.name !== 'TypeDescriptor' || rest.length > 0)
    return ctx.unsupported(callee, `The call "${ctx.slice(callee)}" (PageLens reads make_${kind}<T>(…) with one type)`);
  const of = descriptorOf(item);
  const made: Expr = { kind: 'new', type: of, args, span };
  return { kind: 'cast', type: { k: 'smart', kind, of }, style: 'c', operand: made, span };
}

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
  // `std::chrono::steady_clock::time_point` (or `chrono::…` after `using namespace std`): the samples time their runs with it.
  if (/^(?:::)?(?:std::)?chrono::/.test(text)) return ctx.outOfScope(node, `Timing with std::chrono ("${text}": PageLens keeps no clock)`);
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
    const smart = SMART_POINTERS.get(mapName);
    if (smart !== undefined) return smartType(ctx, node, smart, descriptorOf);
    if (std !== undefined || STD_TEMPLATES.has(plain))
      return ctx.outOfScope(
        node,
        `The C++ library type "${ctx.slice(node)}" (PageLens models std::vector, std::string, std::map, std::unordered_map, std::optional, std::shared_ptr and std::unique_ptr of the library)`,
      );
    // A template the code defines stops at its definition; one used here comes from a header or another library.
    const library = foreignLibraryOf(text);
    return ctx.outOfScope(
      node,
      `The template type "${ctx.slice(node)}" (${library === undefined ? 'from a header or another library' : `another library's, ${library}`})`,
    );
  }
  // A std::string_view is read like the string it views (PageLens keeps texts, not their memory).
  if (std === 'string' || std === 'string_view') return { k: 'string' };
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
