import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
  '.c': 'text/plain; charset=utf-8',
};

/**
 * Headers on every response. The token travels in the page URL, so the page must never send a
 * Referer; everything the page needs comes from this agent (no CDN), which the CSP states.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Resolves a URL path inside `root`, or undefined when it would escape it. */
export function resolveInside(root: string, urlPath: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0') || decoded.split(/[/\\]/).includes('..')) return undefined;
  const relative = normalize(decoded).replace(/^([/\\])+/, '');
  const full = join(root, relative);
  return full === root || full.startsWith(root.endsWith(sep) ? root : root + sep) ? full : undefined;
}

export function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(`${text}\n`);
}

/**
 * Serves the built web app from `root`. Unknown paths without an extension fall back to
 * index.html (the app reads its state from the URL); hashed assets are cached for a year.
 */
export async function serveStatic(root: string, urlPath: string, method: string, response: ServerResponse): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    sendText(response, 405, `${method} is not supported here; the agent serves files with GET and talks on /ws`);
    return;
  }
  const wanted = urlPath === '/' ? '/index.html' : urlPath;
  let file = resolveInside(root, wanted);
  if (file === undefined) {
    sendText(response, 400, 'bad path');
    return;
  }
  let info = await stat(file).catch(() => undefined);
  if ((info === undefined || !info.isFile()) && extname(wanted) === '') {
    file = join(root, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (info === undefined || !info.isFile()) {
    const missingApp = file === join(root, 'index.html');
    sendText(
      response,
      missingApp ? 503 : 404,
      missingApp
        ? `The web app is not built (no ${file}). Run "pnpm build" (or "npm start", which builds it) and reload.`
        : `not found: ${urlPath}`,
    );
    return;
  }
  const immutable = wanted.startsWith('/assets/');
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
    'Content-Length': info.size,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (method === 'HEAD') {
    response.end();
    return;
  }
  createReadStream(file).pipe(response);
}
