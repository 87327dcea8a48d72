import { parseAgentMessage, SimHost, SimRuntime } from '@pagelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SnapshotTexts } from '../src/session/snapshot-texts.ts';

async function host() {
  const sim = new SimHost({ seed: 5 });
  const runtime = new SimRuntime(sim);
  await runtime.aclInit({ configPath: null });
  await runtime.aclrtSetDevice({ deviceId: 0 });
  await runtime.aclrtMalloc({ size: 3 * 1024 * 1024, policy: 0 });
  return { sim, runtime };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('snapshot texts', () => {
  it('clients asking while the seq stays put share one build per form, text and bytes', async () => {
    const { sim } = await host();
    const texts = new SnapshotTexts();
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let client = 0; client < 3; client += 1) {
      texts.text(sim.state, true, true);
      texts.text(sim.state, false, true);
    }
    expect(stringify).toHaveBeenCalledTimes(2);
    await Promise.resolve();
    texts.text(sim.state, true, true);
    expect(stringify).toHaveBeenCalledTimes(2);
    const bytes = texts.bytes(sim.state, true, true);
    expect(texts.bytes(sim.state, true, true)).toBe(bytes);
    expect(bytes.toString('utf8')).toBe(texts.text(sim.state, true, true));
  });

  it('each form is a valid snapshot of the state', async () => {
    const { sim } = await host();
    const texts = new SnapshotTexts();
    const rows = texts.text(sim.state, false, true);
    const packed = texts.text(sim.state, true, true);
    expect(texts.text(sim.state, true, false)).toContain('"reset":false');
    const [a, b] = [parseAgentMessage(rows), parseAgentMessage(packed)];
    expect(a.ok && b.ok && a.value.type === 'snapshot' && b.value.type === 'snapshot').toBe(true);
    if (a.ok && b.ok && a.value.type === 'snapshot' && b.value.type === 'snapshot') {
      expect(b.value.snapshot.allocations).toEqual(a.value.snapshot.allocations);
      expect(a.value).toMatchObject({ seq: sim.state.seq, reset: true });
    }
  });

  it('a new seq builds afresh', async () => {
    const { sim, runtime } = await host();
    const texts = new SnapshotTexts();
    const before = texts.text(sim.state, true, false);
    await runtime.aclrtMalloc({ size: 4096, policy: 0 });
    const after = texts.text(sim.state, true, false);
    expect(after).not.toBe(before);
    expect(after).toContain(`"seq":${sim.state.seq}`);
  });
});
