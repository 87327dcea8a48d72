import { typeName } from './c-type-model.ts';
import type { BindingKind, Frame, Scope } from './machine.ts';
import { showValue } from './values.ts';

export interface VariableView {
  readonly name: string;
  readonly type: string;
  /** Display text: `2097152 (2 MiB)`, `0x100000000000`, `&devPtr`, `{id = 0, type = 1 (ACL_MEM_LOCATION_TYPE_DEVICE)}`. */
  readonly value: string;
  readonly scope: BindingKind;
  /** The function the variable belongs to; `(global)` for globals and inputs. */
  readonly frame: string;
}

/** The variables visible from `frame`: its own first (an inner declaration hides an outer one), then globals, then inputs. */
export function listVariables(frame: Frame | undefined, globals: Scope): VariableView[] {
  const seen = new Set<string>();
  const levels: VariableView[][] = [];
  for (let scope: Scope | undefined = frame?.scope ?? globals; scope !== undefined; scope = scope.parent) {
    const level: VariableView[] = [];
    for (const binding of scope.vars.values()) {
      if (seen.has(binding.name)) continue;
      seen.add(binding.name);
      const owner = binding.kind === 'local' || binding.kind === 'param' ? (frame?.name ?? '(top level)') : '(global)';
      level.push({
        name: binding.name,
        type: typeName(binding.cell.type),
        value: showValue(binding.cell.value, binding.cell),
        scope: binding.kind,
        frame: owner,
      });
    }
    levels.unshift(level);
  }
  const rank = (v: VariableView) => (v.scope === 'input' ? 2 : v.scope === 'global' ? 1 : 0);
  return levels.flat().sort((a, b) => rank(a) - rank(b));
}
