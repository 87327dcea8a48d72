import { spawn } from 'node:child_process';
import { hostname, release } from 'node:os';
import { resolve } from 'node:path';
import { startAgentServer } from '../server/http-server.ts';
import { consoleLogger } from '../server/logger.ts';
import { newToken } from '../server/token.ts';
import { openConnection } from '../session/connection.ts';
import type { ServeOptions } from './program.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`could not start ${command}; open the URL yourself\n`));
  child.unref();
}

/** Starts the agent and resolves once it has shut down after SIGINT or SIGTERM. */
export async function serve(options: ServeOptions): Promise<void> {
  const log = consoleLogger(options.quiet);
  if (options.backend !== 'sim') {
    throw new Error(`backend "${options.backend}" is not available in this build; use --backend sim`);
  }
  const token = options.token ?? newToken();
  if (!LOOPBACK.has(options.host)) {
    log.warn(
      `listening on ${options.host}, not loopback: anyone who can reach this address and has the token can drive the agent. Prefer an SSH tunnel to 127.0.0.1.`,
    );
  }
  const allowedHosts = new Set(options.allowHost);
  if (!LOOPBACK.has(options.host) && options.host !== '0.0.0.0' && options.host !== '::') allowedHosts.add(options.host);

  const server = await startAgentServer({
    host: options.host,
    port: options.port,
    webDir: resolve(options.webDir),
    policy: { token, allowedHosts, allowedOrigins: new Set(options.allowOrigin) },
    log,
    accept: (socket) =>
      openConnection(socket, {
        backend: options.backend,
        host: { provenance: 'simulated', hostname: hostname(), kernelVersion: release(), hostPageSize: 4096 },
        devices: [],
      }),
  });

  const url = `http://${urlHost(options.host)}:${server.port}/?token=${token}`;
  process.stdout.write(`PageLens is running on the ${options.backend === 'sim' ? 'simulator' : 'ACL runtime'}.\nOpen: ${url}\n`);
  if (options.open) openInBrowser(url);

  await new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      log.info(`${signal}: shutting down`);
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close().then(done, done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
