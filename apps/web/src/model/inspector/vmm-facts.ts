import { aclrtMemAccessFlags, flagNames, formatInteger, type HostState, type Mapping, ptesFor, type Reservation } from '@pagelens/core';
import { address, bytes, type FormatPrefs } from '../format.ts';
import { type Fact, type Inspection, keyed, size, text } from './fact.ts';

/** Where a VA range of a process lies: process, device, start, end and size. */
function rangeFacts(range: Reservation | Mapping, prefs: FormatPrefs): Fact[] {
  return [
    text('inspector.fact.process', String(range.pid)),
    text('inspector.fact.device', String(range.device)),
    text('inspector.fact.address', address(range.addr, prefs)),
    text('inspector.fact.end', address(range.addr + range.size, prefs)),
    size('inspector.fact.size', range.size, prefs),
  ];
}

/** A reserved VA range: its extent and how much of it is backed by mappings (VM-5, VM-6). */
export function reservationInspection(reservation: Reservation, state: HostState, prefs: FormatPrefs): Inspection {
  const mappings = [...state.mappings.values()].filter((mapping) => mapping.reservation === reservation.id).sort((a, b) => a.addr - b.addr);
  const mapped = mappings.reduce((sum, mapping) => sum + mapping.size, 0);
  const facts: Fact[] = [
    ...rangeFacts(reservation, prefs),
    size('inspector.fact.mapped', mapped, prefs),
    keyed('inspector.fact.mappings', 'inspector.value.mappingCount', { count: mappings.length }),
    text('inspector.fact.flags', String(reservation.flags)),
  ];
  return {
    facts,
    reasons: [],
    rules: ['VM-1', 'VM-5'],
    related: mappings.map((mapping) => ({
      label: 'inspector.related.mapping',
      target: { kind: 'mapping', id: mapping.id, device: mapping.device },
    })),
  };
}

/** A mapping of a handle into a reservation: range, backing pages and who may access it (VM-6, VM-7, PT-1). */
export function mappingInspection(mapping: Mapping, state: HostState, prefs: FormatPrefs): Inspection {
  const handle = state.handles.get(mapping.handle);
  const memory = handle === undefined ? undefined : state.physical.get(handle.memory);
  const facts: Fact[] = [
    ...rangeFacts(mapping, prefs),
    text('inspector.fact.reservation', `#${mapping.reservation}`, {
      link: { kind: 'reservation', id: mapping.reservation, device: mapping.device },
    }),
    text('inspector.fact.handle', `#${mapping.handle}`, { link: { kind: 'handle', id: mapping.handle, device: mapping.device } }),
  ];
  if (memory !== undefined) {
    facts.push(
      keyed('inspector.fact.pageClass', `inspector.pageClass.${memory.pageClass}`, { size: bytes(memory.pageSize, prefs) }),
      text('inspector.fact.ptes', formatInteger(ptesFor(mapping.size, memory.pageSize))),
    );
  }
  const access =
    mapping.access.length === 0
      ? keyed('inspector.fact.access', 'inspector.value.ownDevice', { device: mapping.device }, { provenance: 'modeled' })
      : text(
          'inspector.fact.access',
          mapping.access.map((grant) => `Device ${grant.device}: ${flagNames(aclrtMemAccessFlags, grant.flags).join(' | ')}`).join('; '),
        );
  facts.push(access);
  return { facts, reasons: [], rules: ['VM-6', 'VM-7'], related: [] };
}
