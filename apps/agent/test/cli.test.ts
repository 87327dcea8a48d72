import { describe, expect, it } from 'vitest';
import { spawnCli } from './support/cli-process.ts';

/** The CLI with this process's environment and `env` on top. */
function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnCli(args, { ...process.env, ...env });
}

describe('pagelens CLI', () => {
  it('--help lists every flag with its default', async () => {
    const cli = run(['--help']);
    expect(await cli.exited).toBe(0);
    const { stdout } = cli.output();
    for (const flag of ['--backend', '--host', '--port', '--token', '--allow-origin', '--allow-host', '--web-dir', '--open', '--quiet']) {
      expect(stdout).toContain(flag);
    }
    expect(stdout).toContain('default: "127.0.0.1"');
    expect(stdout).toContain('default: 7070');
    expect(stdout).toContain('PAGELENS_TOKEN');
  });

  it('--port 0 prints the real port and a 192-bit token, and SIGTERM shuts it down', async () => {
    const cli = run(['--port', '0', '--quiet']);
    const match = await cli.printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/);
    expect(Number(match[1])).toBeGreaterThan(0);
    expect(match[2]).toHaveLength(48);
    const response = await fetch(`http://127.0.0.1:${match[1]}/ws`, { headers: { authorization: `Bearer ${match[2]}` } });
    expect(response.status).toBe(426);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
  });

  it('takes the token from PAGELENS_TOKEN', async () => {
    const cli = run(['--port', '0', '--quiet'], { PAGELENS_TOKEN: 'scripted-token' });
    const match = await cli.printed(/Open: (\S+)/);
    expect(match[1]).toContain('?token=scripted-token');
    cli.child.kill('SIGTERM');
    await cli.exited;
  });

  it('explains a bad flag value', async () => {
    const cli = run(['--port', '99999']);
    expect(await cli.exited).not.toBe(0);
    expect(cli.output().stderr).toContain('0 to 65535');
  });
});
