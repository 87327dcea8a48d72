import { Command, InvalidArgumentError, Option } from 'commander';

export const DEFAULT_PORT = 7070;
export const DEFAULT_HOST = '127.0.0.1';

export interface ServeOptions {
  readonly backend: string;
  readonly host: string;
  readonly port: number;
  readonly token: string | undefined;
  readonly allowOrigin: readonly string[];
  readonly allowHost: readonly string[];
  readonly webDir: string;
  readonly open: boolean;
  readonly quiet: boolean;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(`"${value}" is not a port; use an integer from 0 to 65535 (0 picks a free port)`);
  }
  return port;
}

function parseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`"${value}" is not an origin; write it as scheme://host[:port], e.g. http://localhost:5173`);
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '')) {
    throw new InvalidArgumentError(
      `"${value}" is not an origin; write it as scheme://host[:port] with no path, e.g. http://localhost:5173`,
    );
  }
  return url.origin;
}

function collect<T>(parse: (value: string) => T) {
  return (value: string, previous: T[]): T[] => [...previous, parse(value)];
}

/** The `pagelens` command line. Every flag states its default in --help. */
export function buildProgram(defaults: { webDir: string }, onServe: (options: ServeOptions) => Promise<void>): Command {
  const program = new Command('pagelens')
    .description('PageLens agent: serves the memory explorer and performs ACL memory operations for it.')
    .showHelpAfterError('(run pagelens --help for every flag)')
    .addOption(
      new Option('--backend <name>', 'where memory operations run: the simulator or the real ACL runtime')
        .choices(['sim', 'acl'])
        .default('sim'),
    )
    .addOption(new Option('--host <address>', 'address to listen on; anything but loopback prints a warning').default(DEFAULT_HOST))
    .addOption(
      new Option('--port <number>', 'port for the web app and /ws (0 picks a free port)').argParser(parsePort).default(DEFAULT_PORT),
    )
    .addOption(
      new Option('--token <token>', 'access token clients must present')
        .env('PAGELENS_TOKEN')
        .default(undefined, 'a new random 192-bit token per launch'),
    )
    .addOption(
      new Option('--allow-origin <origin>', 'another web origin allowed to open /ws (repeatable)')
        .argParser(collect(parseOrigin))
        .default([], 'none: only the agent’s own pages'),
    )
    .addOption(
      new Option('--allow-host <name>', 'another Host header name accepted (repeatable)')
        .argParser(collect((v: string) => v.toLowerCase()))
        .default([], 'none: localhost, 127.0.0.1 and [::1] only'),
    )
    .addOption(new Option('--web-dir <dir>', 'directory of the built web app').default(defaults.webDir, 'apps/web/dist'))
    .addOption(new Option('--open', 'open the URL in the default browser').default(false))
    .addOption(new Option('--quiet', 'print only the URL and warnings').default(false))
    .action(async (options: ServeOptions) => {
      await onServe(options);
    });
  return program;
}
