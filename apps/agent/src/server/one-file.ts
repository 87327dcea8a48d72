import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AccessPolicy, checkToken } from './guards.ts';
import type { Logger } from './logger.ts';
import { SECURITY_HEADERS, sendText } from './static-files.ts';

/** Where `pagelens open` serves its file. No part of the request names the file: there is only one. */
export const FILE_PATH = '/file';

/** The file `pagelens open` was given: its path (fixed at start) and the name the page shows. */
export interface ServedFile {
  readonly path: string;
  readonly name: string;
}

/** The name as an RFC 5987 `filename*` value and a plain ASCII fallback, for Content-Disposition. */
function disposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * GET /file: the one file, streamed (a multi-GB snapshot never sits in the agent's memory), to a
 * client that presents the session token like /ws does. Without `pagelens open` the path is 404.
 * The file's name travels in a header so the page can show it; its path never leaves the agent.
 */
export function serveOneFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: ServedFile | undefined,
  policy: AccessPolicy,
  log: Logger,
): void {
  const verdict = checkToken({ url: request.url ?? '/', headers: request.headers }, policy);
  if (!verdict.ok) {
    sendText(response, verdict.status, verdict.reason);
    return;
  }
  if (file === undefined) {
    sendText(response, 404, 'this agent serves no file: start it with pagelens open FILE');
    return;
  }
  const method = request.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    response.setHeader('Allow', 'GET, HEAD');
    sendText(response, 405, `${FILE_PATH} answers GET and HEAD only`);
    return;
  }
  let size: number;
  try {
    const stat = statSync(file.path);
    if (!stat.isFile()) throw new Error('not a file');
    size = stat.size;
  } catch {
    sendText(response, 410, `${file.name} is no longer readable where pagelens open found it`);
    return;
  }
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/octet-stream',
    'Content-Length': String(size),
    'Content-Disposition': disposition(file.name),
    'X-PageLens-File-Name': encodeURIComponent(file.name),
    'Cache-Control': 'no-store',
  });
  if (method === 'HEAD') {
    response.end();
    return;
  }
  const stream = createReadStream(file.path, { highWaterMark: 1024 * 1024 });
  stream.on('error', (error) => {
    log.error(`reading the opened file failed (${'code' in error ? String(error.code) : 'error'})`);
    response.destroy();
  });
  response.on('close', () => stream.destroy());
  stream.pipe(response);
}
