// @vitest-environment happy-dom
import {
  type AclFunctionName,
  ASCEND_310P3,
  type DeviceProfile,
  declaredDevices,
  encodeSnapshot,
  findProfile,
  type MemoryEvent,
  type Scenario,
  SimHost,
  SimRuntime,
  scenarioById,
} from '@pagelens/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/setup.ts';
import type { CallOutcome } from '../../store/actions-slice.ts';
import { type AppStore, createAppStore } from '../../store/app-store.ts';
import { type AgentActions, ClientProvider } from '../../store/ClientContext.tsx';
import { StoreProvider } from '../../store/StoreProvider.tsx';
import type { Session } from '../../store/session-slice.ts';
import { ScenarioHostNote } from './ScenarioHostNote.tsx';
import { usePlaygroundController } from './usePlayground.ts';

Reflect.set(globalThis, 'IS_REACT_ACT_ENVIRONMENT', true);

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
});

function scenario(id: string): Scenario {
  const found = scenarioById(id);
  if (found === undefined) throw new Error(`no scenario ${id}`);
  return found;
}

/**
 * An agent double: a simulated host whose events reach the store as the client's would, a reset
 * that replaces it (answered by a reset snapshot), and calls run on it.
 */
function simulatedAgent(store: AppStore, devices: readonly DeviceProfile[]) {
  let host: SimHost;
  let runtime: SimRuntime;
  let id = 0;
  const resets: { profile?: string; devices?: number; seed?: number }[] = [];
  const open = (profiles: readonly DeviceProfile[], reset: boolean) => {
    host = new SimHost({ devices: profiles });
    runtime = new SimRuntime(host);
    host.subscribe((batch: readonly MemoryEvent[]) => store.getState().applyEvents(batch));
    store.getState().applySnapshot(encodeSnapshot(host.state), reset);
  };
  open(devices, false);
  const call = async (fn: AclFunctionName, args: unknown): Promise<CallOutcome> => {
    const before = host.state.seq;
    const answer = (await runtime.call(fn, args as never)) as { ret: number; message?: string } & Record<string, unknown>;
    const { ret, message, ...out } = answer;
    const events = Array.from({ length: host.state.seq - before }, (_, i) => before + i + 1);
    id += 1;
    return { id, at: 0, ok: ret === 0, fn, ret, out, events, ...(message === undefined ? {} : { message }) };
  };
  const actions: AgentActions = {
    call: (fn, args) => call(fn, args),
    callUnchecked: (fn, args) => call(fn, args),
    reset: (options = {}) => {
      resets.push(options);
      // As the agent does (reset-check.ts): a profile it does not know is refused, the host kept.
      const profile = options.profile === undefined ? devices[0] : findProfile(options.profile);
      if (profile === undefined) return Promise.resolve({ ok: false, message: `unknown profile "${options.profile}"` });
      act(() =>
        open(
          Array.from({ length: options.devices ?? devices.length }, () => profile),
          true,
        ),
      );
      return Promise.resolve({ ok: true });
    },
    retry: () => {},
  };
  return { actions, resets, runtime: () => runtime };
}

function session(role: 'driver' | 'viewer', devices: number): Session {
  return {
    sessionId: 's',
    role,
    backend: 'sim',
    host: { provenance: 'simulated', hostname: 'test', kernelVersion: '6.1.0', hostPageSize: 4096 },
    devices: Array.from({ length: devices }, (_, id) => ({ id, profile: 'x', socName: 'x', capabilities: [] })),
    functions: new Set(),
    limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
  };
}

/** Exposes the playground controller the note drives, so the test can see what it was asked to do. */
let controllerOf: (() => ReturnType<typeof usePlaygroundController>) | undefined;
function Probe() {
  const controller = usePlaygroundController();
  controllerOf = () => controller;
  return null;
}

function mount(language: 'en' | 'zh', role: 'driver' | 'viewer', devices: readonly DeviceProfile[], shown: Scenario) {
  const store = createAppStore();
  const agent = simulatedAgent(store, devices);
  act(() => {
    store.getState().setSession(session(role, devices.length));
    store.getState().setConnection({ status: 'connected', backend: 'sim', protocol: 1, role, sessionId: 's', host: session(role, 1).host });
  });
  const container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
  act(() =>
    root?.render(
      <I18nextProvider i18n={createI18n(language)}>
        <StoreProvider store={store}>
          <ClientProvider actions={agent.actions}>
            <Probe />
            <ScenarioHostNote scenario={shown} />
          </ClientProvider>
        </StoreProvider>
      </I18nextProvider>,
    ),
  );
  return { store, agent, container };
}

const byTestId = (container: HTMLElement, id: string) => container.querySelector(`[data-testid="${id}"]`);
const items = (container: HTMLElement) => [...container.querySelectorAll('li')].map((li) => [li.dataset.kind, li.textContent]);

/** Waits (without a clock) until `check` holds: the prepare runs the setup through promises. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i += 1) await act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
  expect(check()).toBe(true);
}

describe('the scenario bar and the host a scenario declares', () => {
  it('names the profile and count that differ and resets to the declared host, then prepares the scenario', async () => {
    const { agent, container, store } = mount('en', 'driver', [ASCEND_310P3, ASCEND_310P3], scenario('huge-first-fallback'));
    expect(byTestId(container, 'pl-host-differs')?.querySelector('p')?.textContent).toBe(
      'This scenario was written for a fresh host, Ascend910B2, 1 device. This host differs:',
    );
    expect(items(container)).toEqual([
      ['profile', 'its devices are Ascend310P3, not Ascend910B2'],
      ['devices', 'it has 2 devices, not 1'],
    ]);
    const button = byTestId(container, 'pl-host-reset') as HTMLButtonElement;
    expect(button.textContent).toBe('Reset host to Ascend910B2, 1 device');
    act(() => button.click());
    expect(agent.resets).toEqual([{ profile: 'Ascend910B2', devices: 1 }]);
    // Prepared: the setup ran on the new host and the code waits before its first statement.
    await until(() => controllerOf?.().state.run.status === 'paused');
    expect(store.getState().timeline?.live.devices.map((device) => device.profile.name)).toEqual(['Ascend910B2']);
    expect(byTestId(container, 'pl-host-differs')).toBeNull();
    expect(byTestId(container, 'pl-host-match')?.textContent).toBe('Fresh host ready and the scenario prepared: press Run.');
  });

  it('counts the calls since the reset only for a scenario that needs a fresh host, and says so quietly when all is well', async () => {
    const fresh = mount(
      'zh',
      'driver',
      [declaredDevices(scenario('huge-first-fallback').host)[0] ?? ASCEND_310P3],
      scenario('huge-first-fallback'),
    );
    expect(byTestId(fresh.container, 'pl-host-match')?.textContent).toBe(
      '当前 Host 正是此场景所设计的 Host：Ascend910B2，1 个设备，重置以来未运行过任何调用。',
    );
    await act(async () => {
      await fresh.agent.runtime().aclInit({ configPath: null });
      await fresh.agent.runtime().aclrtSetDevice({ deviceId: 0 });
    });
    expect(items(fresh.container)).toEqual([['used', '自上次重置以来已运行 2 次调用；残留的对象会改变场景得到的内存页']]);
    expect(byTestId(fresh.container, 'pl-host-reset')?.textContent).toBe('将 Host 重置为 Ascend910B2，1 个设备');
    act(() => root?.unmount());
    root = undefined;

    // seed-vmm does not need a fresh host: the same calls leave it content.
    const relaxed = mount('en', 'driver', [declaredDevices(scenario('seed-vmm').host)[0] ?? ASCEND_310P3], scenario('seed-vmm'));
    await act(async () => {
      await relaxed.agent.runtime().aclInit({ configPath: null });
    });
    expect(byTestId(relaxed.container, 'pl-host-match')?.textContent).toBe(
      'The host is the one this scenario was written for: Ascend910B2, 1 device.',
    );
  });

  it('shows a viewer what differs without a button', () => {
    const { container } = mount('en', 'viewer', [ASCEND_310P3], scenario('policies'));
    expect(items(container)).toEqual([['profile', 'its devices are Ascend310P3, not Ascend910B2']]);
    expect(byTestId(container, 'pl-host-reset')).toBeNull();
    expect(container.textContent).toContain('Only the driver can reset the host.');
  });

  it('a reset the agent refuses stops saying "Resetting…", says why, and can be tried again', async () => {
    const declared = scenario('policies');
    const unknown: Scenario = { ...declared, host: { ...declared.host, profile: 'Ascend999' } };
    const { agent, container } = mount('en', 'driver', [ASCEND_310P3], unknown);
    const button = byTestId(container, 'pl-host-reset') as HTMLButtonElement;
    act(() => button.click());
    expect(agent.resets).toEqual([{ profile: 'Ascend999', devices: declared.host.devices }]);
    await until(() => byTestId(container, 'pl-host-refused') !== null);
    expect(byTestId(container, 'pl-host-refused')?.textContent).toBe('The agent did not reset the host: unknown profile "Ascend999"');
    expect(container.textContent).not.toContain('Resetting the host…');
    expect((byTestId(container, 'pl-host-reset') as HTMLButtonElement).disabled).toBe(false);
  });
});
