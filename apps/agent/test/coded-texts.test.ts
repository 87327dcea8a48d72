import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SESSION = fileURLToPath(new URL('../src/session/', import.meta.url));

/** The session's sources (not its tests), with their text. */
function sources(): { name: string; text: string }[] {
  return readdirSync(SESSION)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => ({ name, text: readFileSync(join(SESSION, name), 'utf8') }));
}

/** Places where English written in the agent would reach a client without a code of core's table. */
const UNCODED = [
  // sendError(connection, 'code', 'text…') or with a template literal
  /sendError\([^,]+,\s*'[^']*',\s*[`'"]/g,
  // refuse('code', 'text…') in admission
  /refuse\('[^']*',\s*[`'"]/g,
  // a notice written by hand instead of notice(level, code, text(…))
  /type:\s*'notice'/g,
];

/**
 * Texts a client still receives in English only, because they are not the agent's to word: the
 * web shows their English text (codedText falls back to it). Each is a variable at its call site,
 * where the scan above cannot see it; this list says where each comes from. (The backend's
 * exception text also travels inside the coded `backend-failed` sentence, perform.ts.)
 */
const REMAINING: Readonly<Record<string, string>> = {
  'admission.ts: invalid-argument ← normalized.message': 'core’s wire-argument parser (acl/wire-args.ts): a field and what it allows',
  'admission.ts: invalid-argument ← message': 'core’s argument checks (acl/check-args.ts): a field, what came and what is allowed',
  'hub.ts: bad-message ← parsed.message': 'zod’s text of the schema issue of a malformed message',
  'hub.ts: invalid-argument ← error': 'the backend’s exception text when a reset fails',
};

describe('the agent words its texts through core’s table of codes', () => {
  it('no literal English reaches sendError, refuse or a notice in the session code', () => {
    const found = sources().flatMap(({ name, text }) =>
      UNCODED.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => `${name}: ${match[0]}`)),
    );
    // connection.ts builds every notice: the one `type: 'notice'` allowed.
    expect(found).toEqual(["connection.ts: type: 'notice'"]);
  });

  it('the texts that stay English are exactly the pass-throughs listed', () => {
    const passThrough = sources().flatMap(({ name, text }) =>
      [
        ...text.matchAll(/sendError\([^,]+,\s*'([^']*)',\s*(?!coded\(|text\(|why\b|refused\.why\b|problem\b|admitted\.message)([\w.]+)/g),
        ...text.matchAll(/refuse\('([^']*)',\s*(?!text\()([\w.]+)/g),
      ].map((match) => `${name}: ${match[1]} ← ${match[2]}`),
    );
    expect(passThrough.sort()).toEqual(Object.keys(REMAINING).sort());
  });
});
