import type { RunsMessage } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import { RunRegistry } from '../../src/run/run-registry.ts';

const counts = (calls: number) => ({ calls: () => calls, errors: () => 0, dropped: () => undefined });
const registries: RunRegistry[] = [];
function registry(): RunRegistry {
  const made = new RunRegistry();
  registries.push(made);
  return made;
}
afterEach(() => {
  for (const made of registries.splice(0)) made.close();
});

const brief = (message: RunsMessage) => message.runs.map((run) => [run.run, run.pid, run.state, run.beforeReset ?? false, run.calls]);

describe('the runs registry', () => {
  it('keeps the runs from before a host reset as history, marked, and a pid the new host gives again is a new run', () => {
    const runs = registry();
    const first = runs.add({ pid: 4002, osPid: 100, command: '/bin/a', mode: 'simulated' }, counts(3));
    const second = runs.add({ pid: 4003, osPid: 101, command: '/bin/b', mode: 'traced' }, counts(5));
    runs.finished(first, { code: 0 });
    expect(brief(runs.message())).toEqual([
      [1, 4002, 'exited', false, 3],
      [2, 4003, 'running', false, 5],
    ]);
    runs.hostReset();
    // The new host numbers its processes from the start again: 4002 comes back for another program.
    const third = runs.add({ pid: 4002, osPid: 102, command: '/bin/c', mode: 'simulated' }, counts(1));
    expect(third).toBe(3);
    expect(brief(runs.message())).toEqual([
      [1, 4002, 'exited', true, 3],
      [2, 4003, 'running', true, 5],
      [3, 4002, 'running', false, 1],
    ]);
    // The old program ending after the reset ends its own run, not the new one with its old pid.
    runs.ended(second);
    runs.finished(runs.runOf(102) ?? -1, { signal: 'SIGKILL' });
    expect(brief(runs.message())).toEqual([
      [1, 4002, 'exited', true, 3],
      [2, 4003, 'ended', true, 5],
      [3, 4002, 'killed', false, 1],
    ]);
  });

  it('finds the newest run of an OS pid (the OS reuses pids once a program ended)', () => {
    const runs = registry();
    const old = runs.add({ pid: 4002, osPid: 500, command: 'a', mode: 'simulated' }, counts(0));
    runs.finished(old, { code: 1 });
    const reused = runs.add({ pid: 4003, osPid: 500, command: 'b', mode: 'simulated' }, counts(0));
    expect(runs.runOf(500)).toBe(reused);
    expect(runs.runOf(501)).toBeUndefined();
  });

  it('announces a reset to the listener once, with every run marked', async () => {
    const runs = registry();
    runs.add({ pid: 4002, osPid: 100, command: 'a', mode: 'simulated' }, counts(2));
    const heard = new Promise<RunsMessage>((resolve) => runs.onChange(resolve));
    runs.hostReset();
    expect((await heard).runs.map((run) => run.beforeReset)).toEqual([true]);
  });
});
