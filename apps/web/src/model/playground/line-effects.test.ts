import { ASCEND_910B2 } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simAgent } from '../../../test/playground-sim-agent.ts';
import { PlaygroundController, type PlaygroundHost } from './controller.ts';
import { lineEffects } from './line-effects.ts';

const CODE = `aclInit(nullptr);
aclrtSetDevice(0);
void* a = nullptr;
aclrtMalloc(&a, 3 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST);
void* b = nullptr;
aclrtMalloc(&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST); aclrtFree(b);
for (int i = 0; i < 2; i++) { void* c = nullptr; aclrtMalloc(&c, (i + 1) * 2 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY); aclrtFree(c); }
aclrtFree(a);
for (int i = 0; i < 2; i++) {
    void* d = nullptr;
    aclrtMalloc(&d, (i + 1) * 2 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY);
    aclrtFree(d);
}`;

async function ran() {
  const agent = simAgent();
  const host: PlaygroundHost = {
    call: agent.call,
    lastSeq: agent.lastSeq,
    firstSeq: () => 0,
    followLive: () => undefined,
    callsPerSecond: () => 0,
    yieldControl: () => Promise.resolve(),
    now: () => 0,
  };
  const controller = new PlaygroundController(host, { name: 'effects', code: CODE, inputs: [], setup: '' }, { kind: 'new' });
  await controller.run();
  const start = controller.seqs.start ?? 0;
  const effects = (line: number) => lineEffects(controller.seqs.points, start, line, agent.events, [ASCEND_910B2]);
  const of = (line: number) => effects(line).map((effect) => [effect.fn, effect.reasons.map((r) => r.code)]);
  return { controller, of, effects };
}

describe('lineEffects (issue 15: the gutter tells what an ACL line did)', () => {
  it("an allocation's padding, page decision and pages with waste; lines without decisions have none", async () => {
    const { controller, of } = await ran();
    expect(controller.state.run.status).toBe('finished');
    expect(of(4)).toEqual([['aclrtMalloc', ['pad', 'huge-first-large', 'occupies']]]);
    expect(of(6)).toEqual([['aclrtMalloc', ['pad', 'huge-first-small', 'occupies']]]);
    expect(of(1)).toEqual([]);
    expect(of(8)).toEqual([]);
  });

  it('a line in a loop body tells its last run; a loop on one line is one run', async () => {
    const { of, effects } = await ran();
    const pages = effects(11).map((effect) => effect.reasons.find((r) => r.code === 'occupies')?.values?.pages);
    // The last run asked for 4 MiB: with its 32 B padding that takes three 2 MiB pages (DM-3); the first run's 2 MiB took two.
    expect(pages).toEqual([3]);
    expect(of(7)).toEqual([
      ['aclrtMalloc', ['pad', 'huge-only', 'occupies']],
      ['aclrtMalloc', ['pad', 'huge-only', 'occupies']],
    ]);
  });
});
