import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AclBackend } from '../../../src/backends/acl/acl-backend.ts';
import { noJournal } from '../../../src/journal/entries.ts';
import { type AgentServer, startAgentServer } from '../../../src/server/http-server.ts';
import { silentLogger } from '../../../src/server/logger.ts';
import { Hub } from '../../../src/session/hub.ts';
import { DEFAULT_LIMITS } from '../../../src/session/quotas.ts';
import { TOKEN } from '../../support/agent-harness.ts';

export { TOKEN };

export interface AclHarness {
  readonly port: number;
  readonly hub: Hub;
  readonly backend: AclBackend;
  readonly server: AgentServer;
  close(): Promise<void>;
}

export interface AclHarnessOptions {
  readonly lib: string;
  readonly allowMutations?: boolean;
  readonly sampleMs?: number;
}

/** A real agent (HTTP server, hub) on the acl backend, loading `lib` (the C test double), in this process. */
export async function startAclHarness(options: AclHarnessOptions): Promise<AclHarness> {
  const webDir = mkdtempSync(join(tmpdir(), 'pagelens-web-'));
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><title>PageLens</title>');
  const backend = await AclBackend.open({
    aclLib: options.lib,
    allowMutations: options.allowMutations ?? true,
    sampleMs: options.sampleMs ?? 0,
    env: {},
  });
  const hub = new Hub({
    backend,
    journal: noJournal,
    log: silentLogger,
    limits: DEFAULT_LIMITS,
    allowTakeover: false,
    resumeGraceMs: 30_000,
  });
  const server = await startAgentServer({
    host: '127.0.0.1',
    port: 0,
    webDir,
    policy: { token: TOKEN, allowedHosts: new Set(), allowedOrigins: new Set() },
    log: silentLogger,
    accept: (socket, remote) => hub.connect(socket, remote),
  });
  return {
    port: server.port,
    hub,
    backend,
    server,
    close: async () => {
      await hub.shutdown();
      await server.close();
      await backend.close();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
}
