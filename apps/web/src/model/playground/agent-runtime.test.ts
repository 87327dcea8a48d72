import { ACL_FUNCTION_NAMES, type CallAnswer, compile, Execution, scenarioById } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simAgent } from '../../../test/playground-sim-agent.ts';
import { AgentCallError, createAgentRuntime, createPacer, toAclResult } from './agent-runtime.ts';

const answer = (outcome: Partial<CallAnswer>): CallAnswer => ({ ok: outcome.ret === 0, fn: 'aclrtMalloc', events: [], ...outcome });

describe('toAclResult', () => {
  it('takes the out-parameters of the function by their C names and drops anything else', () => {
    const result = toAclResult('aclrtMalloc', answer({ ret: 0, out: { devPtr: '0x100000000000', stray: 7 } }));
    expect(result).toEqual({ ret: 0, devPtr: '0x100000000000' });
  });

  it('drops an out-field of the wrong wire type, as C would leave the variable unwritten', () => {
    expect(toAclResult('aclrtMalloc', answer({ ret: 0, out: { devPtr: 4096 } }))).toEqual({ ret: 0 });
    expect(toAclResult('aclrtGetDeviceCount', answer({ ret: 0, out: { count: '0x2' } }))).toEqual({ ret: 0 });
    expect(toAclResult('aclrtGetDeviceCount', answer({ ret: 0, out: { count: 2 } }))).toEqual({ ret: 0, count: 2 });
  });

  it('keeps an ACL failure as data: its code and message', () => {
    const result = toAclResult('aclrtFree', answer({ ret: 100000, message: 'devPtr is NULL (DM-13)' }));
    expect(result).toEqual({ ret: 100000, message: 'devPtr is NULL (DM-13)' });
  });

  it('throws when the agent refused the call without an ACL code', () => {
    expect(() => toAclResult('aclrtMalloc', answer({ ok: false, message: 'quota exceeded: 1 GiB of device memory' }))).toThrow(
      new AgentCallError('aclrtMalloc', 'quota exceeded: 1 GiB of device memory'),
    );
  });
});

describe('createAgentRuntime', () => {
  it('has every catalogue function, each calling the agent by its C name in the chosen process', async () => {
    const seen: { fn: string; args: unknown; process: number | undefined }[] = [];
    const runtime = createAgentRuntime({
      call: async (fn, args, process) => {
        seen.push({ fn, args, process });
        return answer({ ret: 0, out: { devPtr: '0x1000' }, events: [41, 42] });
      },
      process: 2,
    });
    for (const name of ACL_FUNCTION_NAMES) expect(typeof runtime[name]).toBe('function');
    const result = await runtime.aclrtMalloc({ size: 64, policy: 0 });
    expect(result).toEqual({ ret: 0, devPtr: '0x1000' });
    expect(seen).toEqual([{ fn: 'aclrtMalloc', args: { size: 64, policy: 0 }, process: 2 }]);
  });

  it('runs the seed device-memory sample through the agent with zero ACL errors', async () => {
    const agent = simAgent();
    const outcomes: string[] = [];
    const runtime = createAgentRuntime({ call: agent.call, onOutcome: (fn, outcome) => outcomes.push(`${fn}:${outcome.ret}`) });
    const scenario = scenarioById('seed-device-memory');
    if (scenario === undefined) throw new Error('seed scenario missing');
    const ex = new Execution(compile(scenario.code).program, runtime);
    const step4 = scenario.code.split('\n').findIndex((line) => line.includes('// STEP 4')) + 1;
    expect(await ex.runToLine(step4)).toEqual({ state: 'paused', line: step4 + 1 });
    // After STEP 3: three device allocations, 96 padded bytes each, one 4 KiB normal page each (DM-3, DM-4).
    expect([...agent.host.state.allocations.values()].map((a) => [a.padded, a.pageClass, a.pages])).toEqual([
      [96, 'normal', 1],
      [96, 'normal', 1],
      [96, 'normal', 1],
    ]);
    expect(await ex.run()).toEqual({ state: 'finished', line: undefined, exitCode: 0 });
    expect(ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(agent.host.state.allocations.size).toBe(0);
    expect(outcomes.filter((o) => o.startsWith('aclrtMalloc:'))).toEqual(['aclrtMalloc:0', 'aclrtMalloc:0', 'aclrtMalloc:0']);
    expect(agent.calls.every((c) => c.process === undefined)).toBe(true);
  });

  it('turns a refused call into a line error of the C code and stops there', async () => {
    const agent = simAgent();
    const runtime = createAgentRuntime({
      call: (fn, args, process) =>
        fn === 'aclrtMalloc'
          ? Promise.resolve(answer({ ok: false, message: 'the connection to the agent was lost' }))
          : agent.call(fn, args, process),
    });
    const code =
      'aclInit(nullptr);\naclrtSetDevice(0);\nvoid* p = nullptr;\naclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST);\naclrtFree(p);';
    const ex = new Execution(compile(code).program, runtime);
    const outcome = await ex.run();
    expect(outcome.state).toBe('error');
    expect(outcome.error).toEqual({
      kind: 'internal',
      message: 'aclrtMalloc: the runtime failed: the connection to the agent was lost',
      line: 4,
      column: 1,
    });
    expect(ex.calls.map((c) => c.fn)).toEqual(['aclInit', 'aclrtSetDevice']);
  });
});

describe('createPacer', () => {
  it('lets one second of calls through at once, then waits for tokens', async () => {
    let time = 0;
    const sleeps: number[] = [];
    const pace = createPacer(
      2,
      () => time,
      async (ms) => {
        sleeps.push(ms);
        time += ms;
      },
    );
    await pace();
    await pace();
    expect(sleeps).toEqual([]);
    await pace();
    expect(sleeps).toEqual([500]);
    expect(time).toBe(500);
  });

  it('never waits without a limit', async () => {
    const pace = createPacer(
      0,
      () => 0,
      async () => {
        throw new Error('must not sleep');
      },
    );
    for (let i = 0; i < 5; i += 1) await pace();
  });
});
