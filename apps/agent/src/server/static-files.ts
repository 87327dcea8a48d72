import { createReadStream, readdirSync, readFileSync, statSync } from 'node:fs';
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
  // sql.js, for msMemScope's .db: the browser compiles it while it streams only when served as wasm.
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.c': 'text/plain; charset=utf-8',
};

/**
 * Headers on every response. The token travels in the page URL, so the page must never send a
 * Referer; everything the page needs comes from this agent (no CDN), which the CSP states.
 * 'wasm-unsafe-eval' lets the import worker compile SQLite's wasm (sql.js, for msMemScope's .db);
 * it allows WebAssembly compilation only, not eval() of JavaScript (CSP Level 3).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
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

/** Assets held in memory: up to this many bytes in all (a build is about 2 MB without source maps). */
const ASSET_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * The built app's hashed assets (`root/assets`, source maps left out), read once at start. A hashed
 * file never changes, and answering from memory takes one synchronous write: the page's script
 * leaves even while the event loop is about to be busy (building the snapshot the page asked for).
 * Assets of a later build, or beyond the budget, are read from disk as before.
 */
export function readAssets(root: string): ReadonlyMap<string, Buffer> {
  const assets = new Map<string, Buffer>();
  const dir = join(root, 'assets');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return assets;
  }
  let total = 0;
  for (const name of names.sort()) {
    const file = join(dir, name);
    if (name.endsWith('.map') || !statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
    const body = readFileSync(file);
    if (total + body.length > ASSET_CACHE_BYTES) break;
    total += body.length;
    assets.set(file, body);
  }
  return assets;
}

/**
 * Serves the built web app from `root` (hashed assets from `assets` when held there). Unknown paths without an extension fall back to
 * index.html (the app reads its state from the URL); hashed assets are cached for a year.
 */
export async function serveStatic(
  root: string,
  urlPath: string,
  method: string,
  response: ServerResponse,
  assets: ReadonlyMap<string, Buffer> = new Map(),
): Promise<void> {
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
  const held = assets.get(file);
  if (held !== undefined) {
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': held.length,
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
    response.end(method === 'HEAD' ? undefined : held);
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
