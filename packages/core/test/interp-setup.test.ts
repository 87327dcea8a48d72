import { describe, expect, it } from 'vitest';
import { compile } from '../src/interp/compile.ts';
import { Execution } from '../src/interp/execution.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';
import { harness, lineOf, runToEnd, shown } from './interp-helpers.ts';

/** Runs `code` to the end in the process `rt`, as the playground runs every execution in its session's process. */
async function runIn(rt: SimRuntime, code: string, setup?: string): Promise<Execution> {
  const ex = new Execution(compile(code).program, rt, setup === undefined ? {} : { setup });
  const outcome = await ex.run();
  if (outcome.state !== 'finished') throw new Error(`did not finish: ${outcome.error?.message ?? outcome.state}`);
  return ex;
}

/** The setup the scenarios give a fragment: aclInit and a device. */
const DEVICE_SETUP = 'aclInit(nullptr);\naclrtSetDevice(0);';

const PASTED = `#include "acl/acl.h"
int main() {
    aclError ret = aclInit(NULL);
    if (ret != ACL_SUCCESS) return 1;
    aclrtSetDevice(0);
    void* dev = nullptr;
    aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtFree(dev);
    aclrtResetDevice(0);
    return 0;
}`;

describe('setup supplies only what the code lacks (issue 15, LT-1, LT-2)', () => {
  it('skips the setup calls the code makes itself: no false ACL_ERROR_REPEAT_INITIALIZE', async () => {
    const h = await runToEnd(PASTED, { setup: DEVICE_SETUP });
    expect(h.ex.exitCode).toBe(0);
    expect(h.ex.calls.map((c) => [c.fn, c.ret, c.inSetup])).toEqual([
      ['aclInit', 0, false],
      ['aclrtSetDevice', 0, false],
      ['aclrtMalloc', 0, false],
      ['aclrtFree', 0, false],
      ['aclrtResetDevice', 0, false],
    ]);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.setupMarks.get(1)?.notes).toEqual(['skipped: the code calls aclInit itself, so the setup leaves it to the code']);
    expect(h.ex.setupMarks.get(2)?.notes).toEqual(['skipped: the code calls aclrtSetDevice itself, so the setup leaves it to the code']);
    // The device's reference count is back to 0: the setup took none of its own (LT-2).
    expect([...h.host.state.processes.values()].map((p) => p.deviceRefs.get(0) ?? 0)).toEqual([0]);
  });

  it('a whole program under the stream setup: the setup leaves aclInit, aclrtSetDevice and the stream the code declares to the code', async () => {
    const setup = 'aclInit(nullptr);\naclrtSetDevice(0);\naclrtCreateStream(&stream);';
    const code = `int main() {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    return 0;
}`;
    const h = await runToEnd(code, { setup, inputs: [{ name: 'stream', ctype: 'aclrtStream' }] });
    expect(h.ex.calls.filter((c) => c.inSetup)).toEqual([]);
    expect(h.ex.aclErrors).toBe(0);
    expect(h.ex.setupMarks.get(3)?.notes).toEqual(['skipped: the code declares its own stream, so the setup leaves it to the code']);
    expect(h.host.state.streams.size).toBe(0);
  });

  it('runs the setup for a fragment that lacks aclInit and aclrtSetDevice', async () => {
    const h = await runToEnd('void* dev = nullptr;\naclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);', { setup: DEVICE_SETUP });
    expect(h.ex.calls.map((c) => [c.fn, c.ret, c.inSetup])).toEqual([
      ['aclInit', 0, true],
      ['aclrtSetDevice', 0, true],
      ['aclrtMalloc', 0, false],
    ]);
  });

  it('a second run on the same host: the setup aclInit that finds the process initialised is a note, not an error', async () => {
    const rt = new SimRuntime(new SimHost());
    const fragment = 'void* dev = nullptr;\naclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);\naclrtFree(dev);';
    await runIn(rt, fragment, DEVICE_SETUP);
    const second = await runIn(rt, fragment, DEVICE_SETUP);
    const init = second.calls[0];
    expect([init?.fn, init?.ret, init?.inSetup]).toEqual(['aclInit', 100002, true]);
    expect(second.aclErrors).toBe(0);
    const mark = second.setupMarks.get(1);
    expect(mark?.calls).toEqual([]);
    expect(mark?.notes[0]).toMatch(/^this host's process was already initialised by an earlier run, .*ACL_SUCCESS.*\(LT-1\)$/);
  });

  it('pasted code run twice on one host: its own aclInit sees ACL_SUCCESS, as in a fresh process; a second aclInit in one run stays an error', async () => {
    const rt = new SimRuntime(new SimHost());
    await runIn(rt, PASTED, DEVICE_SETUP);
    const again = await runIn(rt, PASTED, DEVICE_SETUP);
    expect(again.calls[0]?.ret).toBe(100002);
    expect(again.exitCode).toBe(0);
    expect(shown(again, 'ret')).toBe('0');
    expect(again.aclErrors).toBe(0);
    const twice = await runToEnd('aclInit(nullptr);\naclError second = aclInit(nullptr);', { host: new SimHost() });
    expect(shown(twice.ex, 'second')).toBe('100002');
    expect(twice.ex.aclErrors).toBe(1);
    expect(twice.ex.lineMarks.get(2)?.calls.map((c) => c.retName)).toEqual(['ACL_ERROR_REPEAT_INITIALIZE']);
  });
});

describe('line counts (issue 15: "ran 2 times")', () => {
  it('two statements on one line ran once; a one-line loop counts its header runs', async () => {
    const code = 'int a = 0; int b = 1;\nfor (int i = 0; i < 3; i++) a += b;\na++; a++; a++;';
    const h = await runToEnd(code);
    expect(h.ex.lineMarks.get(1)?.hits).toBe(1);
    expect(h.ex.lineMarks.get(2)?.hits).toBe(4);
    expect(h.ex.lineMarks.get(3)?.hits).toBe(1);
    expect(shown(h.ex, 'a')).toBe('6');
  });

  it('a function called twice: its lines ran twice', async () => {
    const code =
      'int twice(int x) { int y = x; return y * 2; }\nint main(void) {\n    int a = twice(1); int b = twice(a);\n    return b;\n}';
    const h = await runToEnd(code);
    expect(h.ex.lineMarks.get(1)?.hits).toBe(2);
    expect(h.ex.lineMarks.get(lineOf(code, 'int a'))?.hits).toBe(1);
    expect(h.ex.exitCode).toBe(4);
  });
});

describe('harness sanity', () => {
  it('a paused execution knows its line', async () => {
    const { ex } = harness('int a = 1;\nint b = 2;');
    expect((await ex.step()).line).toBe(1);
  });
});
