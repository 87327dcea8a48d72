import type { FunctionDef } from './ast.ts';

/**
 * The function of the program a call names. Functions of a namespace are stored under their
 * qualified names (`memory::WriteFile`); a plain name also finds one in any namespace, which is
 * what `using namespace memory;` or a call from inside the namespace means. When several
 * namespaces define the name, the caller's own namespace wins, then the global one. An overload
 * is stored as `name/count` (its number of parameters, parse.ts): `argCount` picks it.
 */
export function resolveFunction(
  functions: ReadonlyMap<string, FunctionDef>,
  callee: string,
  caller: string | undefined,
  argCount?: number,
): FunctionDef | undefined {
  const exact = byArity(functions, callee, argCount);
  if (exact !== undefined) return exact;
  const suffix = `::${callee}`;
  const candidates = [...functions.values()].filter((fn) => fn.name.endsWith(suffix) && fn.owner === undefined);
  if (candidates.length <= 1) return candidates[0];
  const namespace = caller?.includes('::') === true ? caller.slice(0, caller.lastIndexOf('::')) : undefined;
  return candidates.find((fn) => namespace !== undefined && fn.name === `${namespace}${suffix}`) ?? candidates[0];
}

/** True when a call with `count` arguments fits `fn`: every parameter without a default argument given, no more than all of them. */
export function acceptsArgs(fn: FunctionDef, count: number): boolean {
  const required = fn.params.filter((param) => param.default === undefined).length;
  return count >= required && count <= fn.params.length;
}

/** `name` itself when its parameters match `argCount` (or no count is given), else its overload `name/argCount`. */
export function byArity(functions: ReadonlyMap<string, FunctionDef>, name: string, argCount?: number): FunctionDef | undefined {
  const plain = functions.get(name);
  if (plain === undefined || argCount === undefined || acceptsArgs(plain, argCount)) return plain;
  return functions.get(`${name}/${argCount}`) ?? plain;
}

/** The member function `method` of the class `owner` for a call with `argCount` arguments. */
export function memberFunction(
  functions: ReadonlyMap<string, FunctionDef>,
  owner: string,
  method: string,
  argCount?: number,
): FunctionDef | undefined {
  return byArity(functions, `${owner}::${method}`, argCount);
}
