import type { FunctionDef } from './ast.ts';

/**
 * The function of the program a call names. Functions of a namespace are stored under their
 * qualified names (`memory::WriteFile`); a plain name also finds one in any namespace, which is
 * what `using namespace memory;` or a call from inside the namespace means. When several
 * namespaces define the name, the caller's own namespace wins, then the global one.
 */
export function resolveFunction(
  functions: ReadonlyMap<string, FunctionDef>,
  callee: string,
  caller: string | undefined,
): FunctionDef | undefined {
  const exact = functions.get(callee);
  if (exact !== undefined) return exact;
  const suffix = `::${callee}`;
  const candidates = [...functions.values()].filter((fn) => fn.name.endsWith(suffix));
  if (candidates.length <= 1) return candidates[0];
  const namespace = caller?.includes('::') === true ? caller.slice(0, caller.lastIndexOf('::')) : undefined;
  return candidates.find((fn) => namespace !== undefined && fn.name === `${namespace}${suffix}`) ?? candidates[0];
}
