import {
  ACL_HOST_REG,
  aclrtMemcpyKind,
  type CopyRecord,
  flagNames,
  type HostBuffer,
  type Reason,
  type Stream,
  toHex,
} from '@pagelens/core';
import { address, duration, type FormatPrefs, rate } from '../format.ts';
import type { RateSpread } from '../host-copies/rate-spread.ts';
import { failureModeText } from './event-facts.ts';
import { type Fact, type Inspection, keyed, size, text, yesNo } from './fact.ts';

/** A host buffer: pageable or pinned, and its device registration if any (HM-1, HM-2, HM-5, HM-6). */
export function hostInspection(buffer: HostBuffer, prefs: FormatPrefs): Inspection {
  const facts: Fact[] = [
    text('inspector.fact.process', String(buffer.pid)),
    text('inspector.fact.function', buffer.fn),
    keyed('inspector.fact.memory', `inspector.value.${buffer.memory}`),
    text('inspector.fact.address', address(buffer.addr, prefs)),
    size('inspector.fact.size', buffer.size, prefs),
  ];
  if (buffer.vaFlag) facts.push(yesNo('inspector.fact.vaFlag', true));
  const registration = buffer.registration;
  const rules = [buffer.memory === 'pinned' ? 'HM-2' : 'HM-1'];
  if (registration !== undefined) {
    rules.push('HM-5', 'HM-6');
    facts.push(
      text('inspector.fact.registeredBy', registration.fn),
      text('inspector.fact.device', String(registration.device)),
      text('inspector.fact.flags', flagNames(ACL_HOST_REG, registration.flags).join(' | ') || String(registration.flags)),
      text('inspector.fact.devPtr', address(registration.devPtr, prefs)),
      yesNo('inspector.fact.vaConsistent', registration.vaConsistent, registration.vaConsistent ? { tone: 'ok' } : {}),
    );
  }
  return { facts, reasons: [], rules, related: [] };
}

/** A stream: its handle, context, failure mode and how far its queued work reaches in time (CP-4, CP-7, CX-3). */
export function streamInspection(stream: Stream, now: number): Inspection {
  const facts: Fact[] = [
    text('inspector.fact.process', String(stream.pid)),
    text('inspector.fact.device', String(stream.device)),
    text('inspector.fact.streamHandle', stream.isDefault ? 'NULL' : toHex(stream.handle)),
    yesNo('inspector.fact.defaultStream', stream.isDefault),
    keyed('inspector.fact.busy', stream.busyUntil > now ? 'inspector.value.busyFor' : 'inspector.value.idle', {
      time: duration(Math.max(0, stream.busyUntil - now)),
    }),
    text('inspector.fact.failureMode', failureModeText(stream.failureMode)),
  ];
  const rules = ['CP-4', 'CP-7'];
  if (stream.context !== undefined) {
    facts.splice(
      2,
      0,
      text('inspector.fact.context', `#${stream.context}`, { link: { kind: 'context', id: stream.context, device: stream.device } }),
    );
    rules.push('CX-3');
  }
  return { facts, reasons: [], rules, related: [] };
}

/** A copy: what moved where, how fast and why at that speed (CP-1, CP-3, HM-1, HM-3). */
export function copyInspection(copy: CopyRecord, reasons: readonly Reason[], prefs: FormatPrefs, spread?: RateSpread): Inspection {
  const facts: Fact[] = [
    text('inspector.fact.function', copy.fn),
    text('inspector.fact.kind', aclrtMemcpyKind.nameOf(copy.memcpyKind) ?? String(copy.memcpyKind)),
    text('inspector.fact.source', address(copy.src, prefs)),
    text('inspector.fact.destination', address(copy.dst, prefs)),
    size('inspector.fact.size', copy.bytes, prefs),
    text('inspector.fact.device', String(copy.device)),
    keyed('inspector.fact.mode', `inspector.copyMode.${copy.mode}`),
    keyed('inspector.fact.path', `inspector.copyPath.${copy.path}`, undefined, copy.path === 'pageable-staged' ? { tone: 'warn' } : {}),
    text('inspector.fact.duration', duration(copy.end - copy.start)),
    text('inspector.fact.bandwidth', rate(copy.bytesPerSec)),
  ];
  // CP-3: the rate is one draw of the simulator's pageable jitter; the next such copy gets another.
  if (spread !== undefined)
    facts.push(
      keyed('inspector.fact.jitter', 'common.rateSpread', { low: rate(spread.low), high: rate(spread.high) }, { provenance: 'modeled' }),
    );
  if (copy.stream !== undefined)
    facts.push(text('inspector.fact.stream', `#${copy.stream}`, { link: { kind: 'stream', id: copy.stream } }));
  if (copy.stages > 0) facts.push(text('inspector.fact.stages', String(copy.stages)));
  facts.push(text('inspector.fact.window', `${duration(copy.start)} → ${duration(copy.end)}`));
  const rules = [...new Set(reasons.flatMap((reason) => reason.rules))];
  return { facts, reasons, rules, related: [] };
}
