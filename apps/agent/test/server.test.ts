import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION } from '@pagelens/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN } from './support/agent-harness.ts';
import { rawRequest, rawUpgrade } from './support/http.ts';
import { TestClient } from './support/ws-client.ts';

let webDir: string;

let harness: Harness;
let server: { port: number };

beforeAll(async () => {
  harness = await startHarness();
  server = { port: harness.port };
  webDir = harness.webDir;
  mkdirSync(join(webDir, 'assets'));
  writeFileSync(join(webDir, 'assets', 'app.js'), 'console.log(1)');
});

afterAll(async () => {
  await harness.close();
});

describe('one port serves the web app', () => {
  it('serves index.html with security headers and no Referer leak', async () => {
    const response = await rawRequest(server.port, '/?token=x');
    expect(response.status).toBe(200);
    expect(response.body).toContain('<title>PageLens</title>');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['content-security-policy']).toContain("connect-src 'self'");
  });
  it('caches hashed assets and refuses path traversal', async () => {
    const asset = await rawRequest(server.port, '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    // The URL parser already folds ".." segments; whatever the path, nothing outside webDir is served.
    for (const path of ['/%2e%2e/%2e%2e/etc/passwd', '/../../etc/passwd', '/assets/..%2f..%2f..%2fetc/passwd']) {
      const attempt = await rawRequest(server.port, path);
      expect(attempt.body).not.toContain('root:');
    }
  });
  it('refuses a foreign Host header on plain HTTP too', async () => {
    const response = await rawRequest(server.port, '/', { host: 'rebind.example:7070' });
    expect(response.status).toBe(403);
    expect(response.body).toContain('rebind.example');
  });
  it('refuses methods other than GET and HEAD', async () => {
    const response = await rawRequest(server.port, '/', {}, 'POST');
    expect(response.status).toBe(405);
  });
});

describe('/ws is authorised before the handshake', () => {
  it.each([
    ['a missing token', '/ws', {}, 401, 'missing token'],
    ['a wrong token', '/ws?token=wrong', {}, 401, 'wrong token'],
    ['a wrong bearer token', '/ws', { authorization: 'Bearer wrong' }, 401, 'wrong token'],
    ['a foreign Origin', `/ws?token=${TOKEN}`, { origin: 'https://evil.example' }, 403, 'Origin'],
    ['Origin null', `/ws?token=${TOKEN}`, { origin: 'null' }, 403, 'Origin'],
    ['a foreign Host', `/ws?token=${TOKEN}`, { host: 'evil.example' }, 403, 'Host'],
  ])('%s gets an HTTP error and no socket', async (_label, path, headers, status, text) => {
    const response = await rawUpgrade(server.port, path, headers);
    expect(response.status).toBe(status);
    expect(response.body).toContain(text);
  });

  it('a non-upgrade request gets 426 with the right token and 401 without', async () => {
    const withToken = await rawRequest(server.port, '/ws', { authorization: `Bearer ${TOKEN}` });
    expect(withToken.status).toBe(426);
    expect(withToken.body).toContain('WebSocket endpoint');
    const without = await rawRequest(server.port, '/ws');
    expect(without.status).toBe(401);
  });

  it('accepts the token as a query parameter or a bearer header', async () => {
    expect((await rawUpgrade(server.port, `/ws?token=${TOKEN}`)).status).toBe(101);
    expect((await rawUpgrade(server.port, '/ws', { authorization: `Bearer ${TOKEN}` })).status).toBe(101);
    expect(
      (await rawUpgrade(server.port, '/ws', { authorization: `Bearer ${TOKEN}`, origin: `http://127.0.0.1:${server.port}` })).status,
    ).toBe(101);
  });

  it('keeps serving after refusals', async () => {
    for (let i = 0; i < 20; i += 1) await rawUpgrade(server.port, '/ws?token=bad');
    const client = await TestClient.connect(server.port, TOKEN);
    client.send({ type: 'hello', protocol: PROTOCOL_VERSION, role: 'driver' });
    expect((await client.next()).type).toBe('welcome');
    client.close();
  });
});

describe('hello and welcome', () => {
  it('welcomes a hello with the backend and protocol', async () => {
    const client = await TestClient.connect(server.port, TOKEN);
    client.send({ type: 'hello', protocol: PROTOCOL_VERSION, role: 'viewer' });
    const welcome = await client.next();
    expect(welcome).toMatchObject({ type: 'welcome', protocol: PROTOCOL_VERSION, backend: 'sim', role: 'viewer' });
    client.close();
  });

  it('names both versions on a protocol mismatch and closes', async () => {
    const client = await TestClient.connect(server.port, TOKEN);
    client.send({ type: 'hello', protocol: PROTOCOL_VERSION + 1, role: 'driver' });
    const error = await client.next();
    expect(error.type).toBe('error');
    if (error.type === 'error') {
      expect(error.code).toBe('protocol-mismatch');
      expect(error.message).toContain(`protocol ${PROTOCOL_VERSION}`);
      expect(error.message).toContain(`protocol ${PROTOCOL_VERSION + 1}`);
    }
    expect((await client.closed).code).toBe(1002);
  });

  it('answers malformed messages with the field and what is allowed', async () => {
    const client = await TestClient.connect(server.port, TOKEN);
    client.send('{not json');
    const notJson = await client.next();
    expect(notJson).toMatchObject({ type: 'error', code: 'bad-message' });
    client.send({ type: 'hello', protocol: 1, role: 'admin' });
    const badRole = await client.next();
    expect(badRole).toMatchObject({ type: 'error', code: 'bad-message', field: 'role' });
    if (badRole.type === 'error') expect(badRole.message).toContain('"admin"');
    client.close();
  });

  it('closes a socket that sends a payload over 1 MiB', async () => {
    const client = await TestClient.connect(server.port, TOKEN);
    client.send('x'.repeat(1024 * 1024 + 1));
    expect((await client.closed).code).toBe(1009);
  });
});
