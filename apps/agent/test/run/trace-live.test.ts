import { fileURLToPath } from 'node:url';
import type { CallEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { type LoggedCall, readLog } from '../acl/support/acl-double.ts';
import { startTraced } from './traced-session.ts';

/*
 * Trace mode's observed calls as model events, against the C test double standing in for CANN
 * (no Ascend host is reachable here; TEST DOUBLE, not hardware): a viewer connected before the
 * program starts sees each call the double logged as an observed call event of the program's
 * process, with the state changes the acl backend's effects record (no frame placement).
 */

const SOURCE = fileURLToPath(new URL('./trace/traced_live.c', import.meta.url));

/** The double logs NULL as null and large u64 as text; events carry "0x0" and numbers. */
function same(logged: unknown, observed: unknown): boolean {
  if (logged === null) return observed === null || observed === '0x0';
  if (typeof logged === 'string' && typeof observed === 'string') return logged.toLowerCase() === observed.toLowerCase();
  if (typeof logged === 'object' && typeof observed === 'object' && observed !== null) {
    return Object.entries(logged).every(([key, value]) => same(value, Reflect.get(observed, key)));
  }
  return logged === observed;
}

/** The fields an event and the double's line share (the event has no out-parameter addresses among its args). */
function mismatches(call: CallEvent, line: LoggedCall): string[] {
  const wrong: string[] = [];
  if (call.fn !== line.fn) wrong.push(`fn ${call.fn} ≠ ${line.fn}`);
  if (call.ret !== line.ret) wrong.push(`${call.fn} ret ${call.ret} ≠ ${line.ret}`);
  if (call.thread !== line.tid) wrong.push(`${call.fn} thread ${call.thread} ≠ ${line.tid}`);
  for (const [name, value] of Object.entries(call.args)) {
    if (name in line.args && !same(line.args[name], value))
      wrong.push(`${call.fn}.${name} ${JSON.stringify(value)} ≠ ${JSON.stringify(line.args[name])}`);
  }
  for (const [name, value] of Object.entries(line.out)) {
    if (!same(value, call.out?.[name])) wrong.push(`${call.fn} out ${name} ${JSON.stringify(call.out?.[name])} ≠ ${JSON.stringify(value)}`);
  }
  return wrong;
}

describe('pagelens run --trace, the observed calls in the model', () => {
  it("a viewer sees each call the double logged as an observed event of the program's process, and its memory live without frame placement", async () => {
    const { program, double, child, exited, stdout, stderr, viewer, pid, calls } = await startTraced(SOURCE, 'traced_live');
    await stdout.printed(/traced_live: ready/);
    // The reporter thread delivers asynchronously: wait for the mapping's state, not for a time.
    await viewer.waitFor(() => [...viewer.replica.mappings.values()].some((item) => item.pid === pid), 20_000);
    // Every call the double logged before "ready" is on its way: wait until the viewer has them all (a count, not a time).
    const logged = readLog(double.log);
    await viewer.waitFor(() => calls().length >= logged.length, 20_000);
    expect(calls().map((call) => call.fn)).toEqual(logged.map((line) => line.fn));
    expect(calls().flatMap((call, index) => mismatches(call, logged[index] as LoggedCall))).toEqual([]);
    expect(calls().every((call) => call.provenance === 'observed')).toBe(true);

    const malloc = logged.find((line) => line.fn === 'aclrtMalloc');
    const allocations = [...viewer.replica.allocations.values()].filter((item) => item.pid === pid);
    expect(allocations.map((item) => [item.fn, item.size, `0x${item.addr.toString(16)}`, item.runs])).toEqual([
      ['aclrtMalloc', 3 * 1024 * 1024, malloc?.out.devPtr, []],
    ]);
    const reserve = logged.find((line) => line.fn === 'aclrtReserveMemAddress');
    const reservations = [...viewer.replica.reservations.values()].filter((item) => item.pid === pid);
    expect(reservations.map((item) => [`0x${item.addr.toString(16)}`, item.size])).toEqual([[reserve?.out.virPtr, 8 * 1024 * 1024]]);
    const physical = logged.find((line) => line.fn === 'aclrtMallocPhysical');
    const handles = [...viewer.replica.handles.values()].filter((item) => item.pid === pid);
    expect(handles.map((item) => [item.device, `0x${item.handle.toString(16)}`, item.mappings])).toEqual([[0, physical?.out.handle, 1]]);
    const hosts = [...viewer.replica.hostBuffers.values()].filter((item) => item.pid === pid);
    expect(hosts.map((item) => [item.memory, item.size])).toEqual([['pinned', 64 * 1024]]);
    // Every state change of the traced process is observed (or modeled where the runtime does not say, as a default context).
    const changes = viewer.events.filter(
      (event) => event.kind !== 'call' && 'call' in event && calls().some((call) => call.seq === event.call),
    );
    expect(changes.length).toBeGreaterThan(5);
    expect(changes.every((event) => event.provenance === 'observed' || event.provenance === 'modeled')).toBe(true);

    const ended = stderr.printed(/traced process \d+ exited with code 0/);
    child.stdin.end('go\n');
    await ended;
    await viewer.waitFor(() => [...viewer.replica.allocations.values()].every((item) => item.pid !== pid), 20_000);
    const all = readLog(double.log);
    expect(calls().map((call) => call.fn)).toEqual(all.map((line) => line.fn));
    expect(calls().flatMap((call, index) => mismatches(call, all[index] as LoggedCall))).toEqual([]);
    expect([...viewer.replica.mappings.values()].filter((item) => item.pid === pid)).toEqual([]);
    // The processes panel's list: traced, exited with code 0, every record observed (none dropped).
    const listed = await viewer.waitFor(
      (message) => message.type === 'runs' && message.runs.some((item) => item.pid === pid && item.state === 'exited'),
      10_000,
    );
    expect(listed.type === 'runs' && listed.runs.find((item) => item.pid === pid)).toMatchObject({
      mode: 'traced',
      command: program,
      code: 0,
      calls: all.length,
      errors: 0,
      dropped: 0,
    });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    viewer.socket.close();
  });
});
