import { describe, expect, it } from 'vitest';
import { type AccessPolicy, authorizeUpgrade, checkHost, checkOrigin, hostName, presentedToken } from './guards.ts';

const policy: AccessPolicy = {
  token: 'secret-token',
  allowedHosts: new Set(['box.lan']),
  allowedOrigins: new Set(['http://localhost:5173']),
};

function request(url: string, headers: Record<string, string>) {
  return { url, headers };
}

describe('hostName', () => {
  it.each([
    ['127.0.0.1:7070', '127.0.0.1'],
    ['LOCALHOST:80', 'localhost'],
    ['[::1]:7070', '[::1]'],
    ['example.com', 'example.com'],
    ['[::1]', '[::1]'],
  ])('%s → %s', (header, name) => expect(hostName(header)).toBe(name));

  // Anything but `name[:port]` is the whole header, so that it matches no allowed name.
  it.each(['[::1]evil.com', '[::1]evil.com:7070', '[::1', 'localhost:evil.com', 'localhost:', 'localhost:123456', '127.0.0.1:80:80'])(
    'keeps the malformed %s whole',
    (header) => expect(hostName(header)).toBe(header.toLowerCase()),
  );
});

describe('Host check (DNS rebinding)', () => {
  it.each(['127.0.0.1:7070', 'localhost:1', '[::1]:7070', 'box.lan:7070'])('accepts %s', (host) => {
    expect(checkHost(request('/', { host }), policy)).toEqual({ ok: true });
  });
  it('refuses a foreign name and says how to allow it', () => {
    const verdict = checkHost(request('/', { host: 'evil.example:7070' }), policy);
    expect(verdict).toMatchObject({ ok: false, status: 403 });
    expect(verdict.ok ? '' : verdict.reason).toContain('--allow-host evil.example');
  });
  it.each(['[::1]evil.com', '[::1]evil.com:7070', 'localhost:evil.com', 'localhost@evil.com'])('refuses the look-alike %s', (host) => {
    const verdict = checkHost(request('/', { host }), policy);
    expect(verdict).toMatchObject({ ok: false, status: 403, summary: 'Host not allowed' });
    expect(verdict.ok ? '' : verdict.reason).toContain('--allow-host <name>');
  });
  it('refuses a missing Host header', () => {
    expect(checkHost(request('/', {}), policy)).toMatchObject({ ok: false, status: 400 });
  });
});

describe('token', () => {
  it('is read from the query or a bearer header', () => {
    expect(presentedToken(request('/ws?token=abc', {}))).toBe('abc');
    expect(presentedToken(request('/ws', { authorization: 'Bearer xyz' }))).toBe('xyz');
    expect(presentedToken(request('/ws', { authorization: 'Basic xyz' }))).toBeUndefined();
  });
});

describe('Origin check (cross-site WebSocket hijacking)', () => {
  const host = '127.0.0.1:7070';
  it.each([
    ['its own origin', 'http://127.0.0.1:7070', true],
    ['an allowed dev origin', 'http://localhost:5173', true],
    ['no Origin (scripted client with a token)', undefined, true],
    ['another site', 'https://evil.example', false],
    ['the opaque origin "null"', 'null', false],
    ['the same host on another port', 'http://127.0.0.1:9999', false],
  ])('%s → allowed=%s', (_label, origin, allowed) => {
    const headers: Record<string, string> = { host };
    if (origin !== undefined) headers.origin = origin;
    expect(checkOrigin(request('/ws', headers), policy).ok).toBe(allowed);
  });
});

describe('authorizeUpgrade', () => {
  const good = { host: '127.0.0.1:7070', origin: 'http://127.0.0.1:7070' };
  it('accepts the right token', () => {
    expect(authorizeUpgrade(request('/ws?token=secret-token', good), policy)).toEqual({ ok: true });
  });
  it.each([
    ['a missing token', '/ws', good, 401, 'missing token'],
    ['a wrong token', '/ws?token=nope', good, 401, 'wrong token'],
    ['another path', '/socket?token=secret-token', good, 404, 'use /ws'],
    ['a token as the path', '/ws/secret-token', good, 404, 'use /ws'],
    ['a foreign Host', '/ws?token=secret-token', { ...good, host: 'evil.example' }, 403, 'Host'],
    ['a foreign Origin', '/ws?token=secret-token', { ...good, origin: 'https://evil.example' }, 403, 'Origin'],
  ])('refuses %s', (_label, url, headers, status, reason) => {
    const verdict = authorizeUpgrade(request(url, headers), policy);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) {
      expect(verdict.status).toBe(status);
      expect(verdict.reason).toContain(reason);
      expect(verdict.reason).not.toContain('secret-token');
      expect(verdict.summary).not.toContain('secret-token');
    }
  });
});
