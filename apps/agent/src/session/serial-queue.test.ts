import { describe, expect, it } from 'vitest';
import { SerialQueue } from './serial-queue.ts';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SerialQueue', () => {
  it('runs tasks one at a time in the order queued, even when each waits in the middle', async () => {
    const queue = new SerialQueue();
    const trail: string[] = [];
    const task = (name: string, waits: number) => async () => {
      trail.push(`start ${name}`);
      for (let i = 0; i < waits; i += 1) await turn();
      trail.push(`end ${name}`);
    };
    queue.push(task('a', 3));
    queue.push(task('b', 0));
    const c = queue.run(async () => {
      await task('c', 1)();
      return 'c done';
    });
    expect(queue.size).toBe(3);
    expect(await c).toBe('c done');
    expect(trail).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    await turn();
    expect(queue.size).toBe(0);
  });

  it('starts a task at once when idle, so a call costs no extra turn', () => {
    const queue = new SerialQueue();
    let started = false;
    queue.push(async () => {
      started = true;
    });
    expect(started).toBe(true);
  });

  it('counts a running task until it has finished', async () => {
    const queue = new SerialQueue();
    let release = () => {};
    queue.push(() => new Promise<void>((resolve) => (release = resolve)));
    queue.push(async () => {});
    expect(queue.size).toBe(2);
    release();
    await turn();
    expect(queue.size).toBe(0);
  });

  it('run() rejects with the task’s error, and the tasks after it still run', async () => {
    const queue = new SerialQueue();
    const failed = queue.run(async () => {
      throw new Error('backend broke');
    });
    const next = queue.run(async () => 42);
    await expect(failed).rejects.toThrow('backend broke');
    expect(await next).toBe(42);
    await turn();
    expect(queue.size).toBe(0);
  });
});
