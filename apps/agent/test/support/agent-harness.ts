import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASCEND_910B2, type DeviceProfile } from '@pagelens/core';
import type { Backend } from '../../src/backends/backend.ts';
import { SimBackend } from '../../src/backends/sim/sim-backend.ts';
import type { JournalSink } from '../../src/journal/entries.ts';
import { noJournal } from '../../src/journal/entries.ts';
import { type AgentServer, startAgentServer } from '../../src/server/http-server.ts';
import { type Logger, silentLogger } from '../../src/server/logger.ts';
import { Hub, type HubOptions } from '../../src/session/hub.ts';
import { DEFAULT_LIMITS, type Limits } from '../../src/session/quotas.ts';

export const TOKEN = 'test-token-0123456789abcdef';

export interface Harness<B extends Backend = SimBackend> {
  readonly port: number;
  readonly hub: Hub;
  readonly backend: B;
  readonly server: AgentServer;
  readonly webDir: string;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly profile?: DeviceProfile;
  readonly devices?: number;
  readonly limits?: Partial<Limits>;
  readonly allowTakeover?: boolean;
  readonly resumeGraceMs?: number;
  readonly journal?: JournalSink;
  readonly heartbeatMs?: number;
  readonly allowedOrigins?: readonly string[];
  readonly watermarks?: HubOptions['watermarks'];
  readonly maxConnections?: number;
  /** Where the agent logs (silent by default). */
  readonly log?: Logger;
  readonly clock?: HubOptions['clock'];
}

/** A real agent (HTTP server, hub, simulator) on a free port, in this process. */
export function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  return startHarnessOn(new SimBackend(options.profile ?? ASCEND_910B2, options.devices ?? 1, 1), options);
}

/** A real agent (HTTP server and hub) on `backend`, on a free port, in this process; closing it closes the backend too. */
export async function startHarnessOn<B extends Backend>(backend: B, options: HarnessOptions = {}): Promise<Harness<B>> {
  const webDir = mkdtempSync(join(tmpdir(), 'pagelens-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>PageLens</title>');
  const hubOptions: HubOptions = {
    backend,
    journal: options.journal ?? noJournal,
    log: options.log ?? silentLogger,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    allowTakeover: options.allowTakeover ?? false,
    resumeGraceMs: options.resumeGraceMs ?? 30_000,
    ...(options.watermarks === undefined ? {} : { watermarks: options.watermarks }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  };
  const hub = new Hub(hubOptions);
  const server = await startAgentServer({
    host: '127.0.0.1',
    port: 0,
    webDir,
    policy: { token: TOKEN, allowedHosts: new Set(), allowedOrigins: new Set(options.allowedOrigins ?? []) },
    log: options.log ?? silentLogger,
    ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    accept: (socket, remote) => hub.connect(socket, remote),
  });
  return {
    port: server.port,
    hub,
    backend,
    server,
    webDir,
    close: async () => {
      await hub.shutdown();
      await server.close();
      await backend.close();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
}
