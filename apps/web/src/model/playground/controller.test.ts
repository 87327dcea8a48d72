import { scenarioById } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simAgent } from '../../../test/playground-sim-agent.ts';
import { PlaygroundController, type PlaygroundHost } from './controller.ts';
import { docFromScenario } from './playground-doc.ts';

function setup(id: string) {
  const agent = simAgent();
  let follows = 0;
  const host: PlaygroundHost = {
    call: agent.call,
    lastSeq: agent.lastSeq,
    firstSeq: () => 0,
    followLive: () => {
      follows += 1;
    },
    callsPerSecond: () => 0,
    yieldControl: () => Promise.resolve(),
    now: () => 0,
  };
  const scenario = scenarioById(id);
  if (scenario === undefined) throw new Error(`no scenario ${id}`);
  const controller = new PlaygroundController(host, docFromScenario(scenario, 'en'), { kind: 'builtin', id });
  const lineOf = (text: string) => scenario.code.split('\n').findIndex((line) => line.includes(text)) + 1;
  return { agent, controller, lineOf, follows: () => follows };
}

describe('PlaygroundController', () => {
  it('steps the seed device sample line by line; each step maps its line to the seq after it', async () => {
    const { agent, controller, lineOf, follows } = setup('seed-device-memory');
    expect(controller.state.run.status).toBe('idle');
    await controller.step();
    expect(controller.state.run).toMatchObject({ status: 'paused', line: lineOf('int32_t deviceId') });
    const malloc = lineOf('aclrtMalloc(&deviceA');
    await controller.runToLine(malloc);
    const before = agent.lastSeq();
    await controller.step();
    expect(agent.host.state.allocations.size).toBe(1);
    expect(agent.lastSeq()).toBeGreaterThan(before);
    expect(controller.seqAfterLine(malloc)).toBe(agent.lastSeq());
    expect(controller.lineAtSeq(agent.lastSeq())).toBe(malloc);
    expect(controller.state.run.variables.find((v) => v.name === 'deviceA')?.value).toMatch(/^0x[0-9a-f]+$/);
    expect(controller.state.run.codeMarks.find((m) => m.line === malloc)?.details[0]?.text).toBe('aclrtMalloc → ACL_SUCCESS');
    expect(controller.editable).toBe(false);
    expect(controller.edit({ code: '' })).toBe(false);
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', exitCode: 0, aclErrors: 0 });
    expect(agent.host.state.allocations.size).toBe(0);
    // Lines that ran inside run() keep a seq: the state after aclrtFree(deviceA) still holds two allocations.
    const freeA = lineOf('(void)aclrtFree(deviceA)');
    const seq = controller.seqAfterLine(freeA);
    expect(seq).toBeDefined();
    expect(follows()).toBeGreaterThan(0);
  });

  it('runs the seed VMM sample (with its setup) to completion without ACL errors', async () => {
    const { agent, controller } = setup('seed-vmm');
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', aclErrors: 0 });
    expect(controller.state.run.calls).toBeGreaterThan(10);
    expect(agent.host.state.mappings.size + agent.host.state.reservations.size + agent.host.state.physical.size).toBe(0);
  });

  it('offers the undeclared name: an input added after the error lets the code run', async () => {
    const { controller } = setup('seed-host-register');
    controller.edit({ inputs: [] });
    await controller.run();
    // The code does not compile without `size`: nothing runs, the marks say why.
    expect(controller.state.run.status).toBe('idle');
    expect(controller.state.run.codeMarks[0]?.details[0]?.text).toContain('"size" is not declared');
    controller.edit({ inputs: [{ name: 'size', ctype: 'size_t', value: '2 MiB' }] });
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', aclErrors: 0 });
  });

  it('stops a run at the next statement, then reset forgets the execution', async () => {
    const { agent, controller } = setup('seed-device-memory');
    const running = controller.run();
    controller.stop();
    await running;
    expect(controller.state.run.status).toBe('paused');
    expect(controller.state.run.stopping).toBe(false);
    // Stopping did not leave breakpoints behind: Run goes on to the end.
    await controller.run();
    expect(controller.state.run.status).toBe('finished');
    controller.reset();
    expect(controller.state.run.status).toBe('idle');
    expect(controller.seqAfterLine(3)).toBeUndefined();
    expect(agent.host.state.allocations.size).toBe(0);
  });

  it('a paused execution ends with Stop; an edit after it forgets the marks', async () => {
    const { controller } = setup('seed-device-memory');
    await controller.step();
    controller.stop();
    expect(controller.state.run.status).toBe('finished');
    expect(controller.edit({ code: 'int main(void) { return 3; }' })).toBe(true);
    expect(controller.state.run.status).toBe('idle');
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', exitCode: 3 });
  });

  it('runs the function the user picks when the code has several and no main', async () => {
    const { controller } = setup('seed-device-memory');
    controller.edit({ code: 'void first(void) { aclInit(nullptr); }\nvoid second(void) { aclrtGetDeviceCount(nullptr); }' });
    await controller.run();
    expect(controller.state.run.status).toBe('idle');
    expect(controller.state.run.codeMarks[0]?.details[0]?.text).toContain('no main');
    expect(controller.setEntry('first')).toBe(true);
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', calls: 1, aclErrors: 0 });
    expect(controller.setEntry(undefined)).toBe(true);
    expect(controller.state.doc.entry).toBeUndefined();
    expect(controller.state.run.status).toBe('idle');
  });

  it('issue 15: scenario after scenario on one agent, and pasted code calling aclInit under a setup, count no ACL error', async () => {
    const { controller } = setup('seed-vmm');
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', aclErrors: 0 });
    const policies = scenarioById('policies');
    if (policies === undefined) throw new Error('no policies scenario');
    expect(controller.open(docFromScenario(policies, 'en'), { kind: 'builtin', id: 'policies' })).toBe(true);
    await controller.run();
    // The setup's aclInit found the process initialised by the run before: a note, not "1 ACL error".
    expect(controller.state.run).toMatchObject({ status: 'finished', aclErrors: 0 });
    expect(controller.state.run.setupMarks.find((m) => m.line === 1)?.kind).toBe('note');
    controller.edit({ code: 'int main() {\n    if (aclInit(NULL) != ACL_SUCCESS) return 1;\n    aclrtSetDevice(0);\n    return 0;\n}' });
    await controller.run();
    expect(controller.state.run).toMatchObject({ status: 'finished', exitCode: 0, aclErrors: 0 });
  });
});
