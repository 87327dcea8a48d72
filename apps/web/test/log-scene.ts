import { ASCEND_910B2, encodeSnapshot, type Hex, type MemoryEvent, SimHost, SimRuntime } from '@pagelens/core';
import { Timeline } from '../src/model/timeline.ts';

export const MiB = 1024 * 1024;

export interface Scene {
  readonly host: SimHost;
  readonly rt: SimRuntime;
  readonly events: MemoryEvent[];
  /** A timeline holding every event so far (call `sync()` after more calls). */
  readonly timeline: Timeline;
  sync(): void;
}

/** A simulated host after aclInit and aclrtSetDevice(0), recording its events into a Timeline. */
export async function startScene(): Promise<Scene> {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const timeline = new Timeline(encodeSnapshot(host.state));
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const scene = { host, rt, events, timeline, sync: () => timeline.append(events) };
  scene.sync();
  return scene;
}

export function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`missing ${what}`);
  return value;
}

export async function malloc(rt: SimRuntime, size: number, policy: number): Promise<Hex> {
  const result = await rt.aclrtMalloc({ size, policy });
  if (result.ret !== 0) throw new Error(`aclrtMalloc failed: ${result.message}`);
  return need(result.devPtr, 'devPtr');
}
