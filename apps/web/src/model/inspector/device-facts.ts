import {
  aclrtMemAttr,
  aclrtMemMallocPolicy,
  type DeviceAllocation,
  type DeviceProfile,
  formatInteger,
  type HostState,
  type PhysicalHandle,
  type PhysicalMemory,
  type Reason,
  reportAllocation,
  sortRules,
  toHex,
} from '@pagelens/core';
import { withObserved } from '../acl/observed-reasons.ts';
import { address, bytes, type FormatPrefs } from '../format.ts';
import { type Fact, type Inspection, keyed, size, text, yesNo } from './fact.ts';
import { placementFact } from './placement.ts';

function pageFacts(pageClass: DeviceAllocation['pageClass'], pageSize: number, pages: number, prefs: FormatPrefs): Fact[] {
  return [
    keyed('inspector.fact.pageClass', `inspector.pageClass.${pageClass}`, { size: bytes(pageSize, prefs) }),
    text('inspector.fact.pages', `${formatInteger(pages)} × ${bytes(pageSize, prefs)}`),
  ];
}

/** Rules-derived reasons and what the runtime was observed to do, with every rule ID they name. */
function decision(derived: readonly Reason[], observed: readonly Reason[]): { reasons: Reason[]; rules: string[] } {
  const reasons = withObserved(derived, observed);
  return { reasons, rules: sortRules(reasons.flatMap((reason) => reason.rules)) };
}

/**
 * An aclrtMalloc-family allocation: where, how big, which pages and why (DM-3, DM-4, DM-11, PT-1);
 * `observed` adds what a real runtime showed about it (DM-15).
 */
export function allocationInspection(
  allocation: DeviceAllocation,
  profile: DeviceProfile,
  prefs: FormatPrefs,
  observed: readonly Reason[] = [],
  state?: HostState,
): Inspection {
  const report = reportAllocation(allocation, profile);
  const facts: Fact[] = [
    text('inspector.fact.device', `${allocation.device} · ${profile.name}`),
    text('inspector.fact.function', allocation.fn),
    text('inspector.fact.policy', aclrtMemMallocPolicy.nameOf(allocation.policy) ?? String(allocation.policy)),
    text('inspector.fact.address', address(allocation.addr, prefs)),
    text('inspector.fact.end', address(allocation.addr + allocation.size, prefs)),
    size('inspector.fact.requested', report.requested, prefs),
    size('inspector.fact.padded', report.padded, prefs),
    ...pageFacts(report.pageClass, report.pageSize, report.pages, prefs),
    size('inspector.fact.occupied', report.occupied, prefs),
    size('inspector.fact.waste', report.waste, prefs, report.waste > 0 ? { tone: 'warn' } : {}),
    text('inspector.fact.ptes', formatInteger(report.ptes)),
    placementFact(report.pageClass, report.pageSize, allocation.runs),
  ];
  if (allocation.p2p) facts.push(yesNo('inspector.fact.p2p', true));
  if (allocation.fallback !== undefined) {
    facts.push(
      keyed(
        'inspector.fact.fallback',
        'inspector.value.fallback',
        { needed: allocation.fallback.needed, free: allocation.fallback.free },
        { tone: 'warn' },
      ),
    );
  }
  const ipc = state === undefined ? { facts: [], rules: [] } : ipcFacts(allocation, state, prefs);
  const decided = decision(report.reasons, observed);
  return { facts: [...facts, ...ipc.facts], ...decided, rules: sortRules([...decided.rules, ...ipc.rules]), related: [] };
}

/**
 * IPC of the allocation, like a handle's shares: each key it was exported under (IP-1) with its
 * allow-list (IP-2), and each import of it, an address of another process for the same pages (IP-3).
 */
export function ipcFacts(allocation: DeviceAllocation, state: HostState, prefs: FormatPrefs): { facts: Fact[]; rules: string[] } {
  const keys = [...state.ipcKeys.values()].filter((key) => key.allocation === allocation.id);
  const imports = [...state.ipcImports.values()].filter((item) => item.source === allocation.id);
  const facts: Fact[] = [];
  for (const key of keys) {
    facts.push(text('inspector.fact.ipcKey', key.key));
    facts.push(
      key.flags === 1
        ? keyed('inspector.fact.ipcPids', 'inspector.value.ipcAnyProcess', { size: bytes(key.size, prefs) })
        : keyed('inspector.fact.ipcPids', 'inspector.value.ipcAllowed', {
            size: bytes(key.size, prefs),
            pids: key.pids.length === 0 ? '—' : key.pids.join(', '),
          }),
    );
  }
  for (const item of imports) {
    facts.push(keyed('inspector.fact.ipcImport', 'inspector.value.ipcImportAt', { pid: item.pid, addr: address(item.addr, prefs) }));
  }
  const rules = [...(keys.length > 0 ? ['IP-1', 'IP-2'] : []), ...(imports.length > 0 ? ['IP-3'] : [])];
  return { facts, rules };
}

/** Physical memory from aclrtMallocPhysical: its pages, and every handle that reaches it (VM-4, VM-9). */
export function physicalInspection(
  memory: PhysicalMemory,
  state: HostState,
  profile: DeviceProfile,
  prefs: FormatPrefs,
  observed: readonly Reason[] = [],
): Inspection {
  const report = reportAllocation(memory, profile);
  const handles = [...state.handles.values()].filter((handle) => handle.memory === memory.id);
  const facts: Fact[] = [
    text('inspector.fact.device', `${memory.device} · ${profile.name}`),
    text('inspector.fact.memAttr', aclrtMemAttr.nameOf(memory.memAttr) ?? String(memory.memAttr)),
    size('inspector.fact.size', memory.size, prefs),
    ...pageFacts(report.pageClass, report.pageSize, report.pages, prefs),
    size('inspector.fact.occupied', report.occupied, prefs),
    text('inspector.fact.ptes', formatInteger(report.ptes)),
    placementFact(report.pageClass, report.pageSize, memory.runs),
    text('inspector.fact.handles', formatInteger(handles.length)),
  ];
  const seen = decision([], observed);
  return {
    facts,
    reasons: seen.reasons,
    rules: sortRules(['VM-2', 'VM-4', 'DM-11', ...seen.rules]),
    related: handles.map((handle) => ({
      label: 'inspector.related.handle',
      target: { kind: 'handle', id: handle.id, device: handle.device },
    })),
  };
}

/** An aclrtDrvMemHandle: the value the program holds, what it reaches, and its mappings (VM-4, VM-8). */
export function handleInspection(handle: PhysicalHandle, state: HostState, profile: DeviceProfile, prefs: FormatPrefs): Inspection {
  const memory = state.physical.get(handle.memory);
  const facts: Fact[] = [
    text('inspector.fact.process', String(handle.pid)),
    text('inspector.fact.handleValue', toHex(handle.handle)),
    text('inspector.fact.memory', `#${handle.memory}`, { link: { kind: 'physical', id: handle.memory, device: handle.device } }),
    text('inspector.fact.mappings', formatInteger(handle.mappings)),
  ];
  if (handle.importedFrom !== undefined) {
    facts.push(text('inspector.fact.importedFrom', `#${handle.importedFrom}`, { link: { kind: 'handle', id: handle.importedFrom } }));
  }
  // VM-12: references taken with aclrtMemRetainAllocationHandle, each owed one more aclrtFreePhysical.
  facts.push(
    handle.retains === 0
      ? text('inspector.fact.retains', '0')
      : keyed('inspector.fact.retains', 'inspector.value.retainsHeld', { count: handle.retains }),
  );
  if (handle.freed) facts.push(keyed('inspector.fact.state', 'inspector.value.freedWhileMapped', undefined, { tone: 'warn' }));
  const physical = memory === undefined ? undefined : physicalInspection(memory, state, profile, prefs);
  const mappings = [...state.mappings.values()].filter((mapping) => mapping.handle === handle.id);
  return {
    facts: [...facts, ...(physical?.facts.filter((fact) => fact.label !== 'inspector.fact.handles') ?? [])],
    reasons: [],
    rules: ['VM-4', ...(handle.freed ? ['VM-8'] : []), ...(handle.retains > 0 ? ['VM-12'] : [])],
    related: mappings.map((mapping) => ({
      label: 'inspector.related.mapping',
      target: { kind: 'mapping', id: mapping.id, device: mapping.device },
    })),
  };
}
