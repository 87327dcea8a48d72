import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readAssets, serveStatic } from '../src/server/static-files.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function webDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'pagelens-static-'));
  dirs.push(root);
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>PageLens</title>');
  writeFileSync(join(root, 'assets', 'main-abc.js'), 'console.log("main")');
  writeFileSync(join(root, 'assets', 'main-abc.js.map'), '{"version":3}');
  return root;
}

/** The parts of a ServerResponse that serveStatic uses, recording what it was told. */
function recorder() {
  const sent: { status?: number; headers?: Record<string, unknown>; body?: string; ended: boolean } = { ended: false };
  const response = {
    writeHead(status: number, headers: Record<string, unknown>) {
      sent.status = status;
      sent.headers = headers;
      return response;
    },
    setHeader() {},
    end(body?: Buffer | string) {
      if (body !== undefined) sent.body = body.toString();
      sent.ended = true;
    },
  };
  return { sent, response: response as unknown as ServerResponse };
}

describe('hashed assets held in memory', () => {
  it('reads the assets once, without source maps', () => {
    const root = webDir();
    const assets = readAssets(root);
    expect([...assets.keys()]).toEqual([join(root, 'assets', 'main-abc.js')]);
    expect(readAssets(join(root, 'nothing-here')).size).toBe(0);
  });

  it('answers from memory in the same turn (the file may even be gone), immutable; HEAD without a body', async () => {
    const root = webDir();
    const assets = readAssets(root);
    rmSync(join(root, 'assets', 'main-abc.js'));
    const get = recorder();
    const done = serveStatic(root, '/assets/main-abc.js', 'GET', get.response, assets);
    // Written before any await: nothing else on the event loop can hold it back.
    expect(get.sent).toMatchObject({ status: 200, body: 'console.log("main")', ended: true });
    expect(get.sent.headers).toMatchObject({ 'Cache-Control': 'public, max-age=31536000, immutable', 'Content-Length': 19 });
    await done;
    const head = recorder();
    await serveStatic(root, '/assets/main-abc.js', 'HEAD', head.response, assets);
    expect(head.sent).toMatchObject({ status: 200, ended: true });
    expect(head.sent.body).toBeUndefined();
  });

  it('paths outside the web directory are refused before the assets are looked at', async () => {
    const root = webDir();
    const assets = new Map([[join(root, '..', 'secret.js'), Buffer.from('secret')]]);
    const attempt = recorder();
    await serveStatic(root, '/%2e%2e/secret.js', 'GET', attempt.response, assets);
    expect(attempt.sent.status).toBe(400);
    expect(attempt.sent.body).not.toContain('secret');
  });
});
