import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { readPickle } from '../../src/formats/pickle-reader.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';

/** Files written by CPython's pickle module (fixtures/make_fixtures.py), with figures Python summed. */
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));
interface Expected {
  readonly format: string;
  readonly devices: readonly {
    device: number;
    segments: number;
    reservedBytes: number;
    allocatedBytes: number;
    activeBytes: number;
    traceEvents: number;
    actions: Record<string, number>;
    hugePages: number;
    addresses: string[];
  }[];
  /** Pinned host memory, for a file that records it. */
  readonly host?: { segments: number; reservedBytes: number; traceEvents: number; actions: Record<string, number> };
}
const EXPECTED: Record<string, Expected> = JSON.parse(new TextDecoder().decode(fixture('expected.json')));

describe.each(['torch_npu_small.pickle', 'cuda_small.pickle', 'cuda_pinned_small.pickle'])('%s (written by CPython)', (name) => {
  const result = openMemoryFile(fixture(name), name);
  const want = EXPECTED[name];

  it('opens with the format Python wrote, and stats equal the sums Python computed', () => {
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
    expect(result.file.format).toBe(want?.format);
    const stats = snapshotStats(result.file, { profile: ASCEND_910B2, pageSize1g: false });
    expect(stats.devices).toHaveLength(want?.devices.length ?? -1);
    for (const [i, device] of stats.devices.entries()) {
      const { hugePages, addresses, actions, ...figures } = want?.devices[i] ?? { hugePages: -1, addresses: [], actions: {} };
      expect(device).toMatchObject(figures);
      expect(Object.fromEntries(Object.entries(device.actions).filter(([, n]) => n > 0))).toEqual(actions);
      expect(stats.pages.devices[i]?.byClass.huge.pages).toBe(hugePages);
      const read = result.file.segments.filter((s) => s.device === device.device).map((s) => s.address.toString());
      expect(read).toEqual(addresses);
    }
    if (want?.host === undefined) expect(stats.host).toBeUndefined();
    else {
      const { actions, ...figures } = want.host;
      expect(stats.host).toMatchObject(figures);
      expect(Object.fromEntries(Object.entries(stats.host?.actions ?? {}).filter(([, n]) => n > 0))).toEqual(actions);
    }
  });

  it('imports into a session whose pinned host buffers at the end are the host segments Python wrote', () => {
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
    const session = importSnapshot(result.file, { profile: ASCEND_910B2, pageSize1g: false, name });
    expect(session.inconsistent).toBe(0);
    expect(session.pinnedHost?.live).toBe(want?.host?.segments);
    const bytes = [...session.final.hostBuffers.values()].reduce((sum, buffer) => sum + buffer.size, 0);
    expect(bytes).toBe(want?.host?.reservedBytes ?? 0);
  });
});

describe('hostile and damaged files written by CPython', () => {
  it('a pickle that builds a Python object (STACK_GLOBAL builtins.complex + REDUCE) is refused at the opcode, by name', () => {
    const bytes = fixture('hostile_reduce.pickle');
    expect(() => readPickle(bytes)).toThrow(/STACK_GLOBAL \(0x93\) is refused.*"builtins\.complex".*at byte \d+/);
  });

  it('the torch_npu snapshot cut in half says where it ends', () => {
    const bytes = fixture('torch_npu_truncated.pickle');
    const result = openMemoryFile(bytes, 'torch_npu_truncated.pickle');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(new RegExp(`^truncated at byte ${bytes.length}: `));
  });
});
