import { scenarioById } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { docFromScenario, type PlaygroundDoc } from './playground-doc.ts';
import { decodeShare, encodeShare, findSharePayload, MAX_JSON_BYTES, SHARE_KEY, shareUrl } from './share-link.ts';

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

async function deflate(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const hostRegister = scenarioById('seed-host-register');
if (hostRegister === undefined) throw new Error('seed scenario missing');
const DOC: PlaygroundDoc = { ...docFromScenario(hostRegister, 'zh'), entry: 'SampleTest' };

describe('share links', () => {
  it('round-trips a scenario with Chinese comments, inputs, setup and entry', async () => {
    const fragment = await encodeShare(DOC);
    expect(fragment.startsWith(`${SHARE_KEY}=z`)).toBe(true);
    expect(fragment).toMatch(/^playground=z[A-Za-z0-9_-]+$/);
    const decoded = await decodeShare(`#${fragment}`);
    expect(decoded).toEqual({ ok: true, value: DOC });
  });

  it('compresses: the VMM sample makes a link about half as long as the uncompressed form', async () => {
    const vmm = scenarioById('seed-vmm');
    if (vmm === undefined) throw new Error('seed scenario missing');
    const doc = docFromScenario(vmm, 'en');
    const fragment = await encodeShare(doc);
    const plain = base64Url(new TextEncoder().encode(JSON.stringify(doc)));
    expect(fragment.length).toBeLessThan(plain.length * 0.6);
    expect(await decodeShare(fragment)).toEqual({ ok: true, value: doc });
  });

  it('accepts a full URL, a hash or the bare payload, and reads the uncompressed form', async () => {
    const plain = `j${base64Url(new TextEncoder().encode(JSON.stringify({ name: 'n', code: 'int x = 1;', inputs: [], setup: '' })))}`;
    const expected = { ok: true, value: { name: 'n', code: 'int x = 1;', inputs: [], setup: '' } };
    expect(await decodeShare(`http://127.0.0.1:7777/?token=abc#playground=${plain}`)).toEqual(expected);
    expect(await decodeShare(`playground=${plain}`)).toEqual(expected);
    expect(findSharePayload('#other=1&playground=zAB')).toBe('zAB');
  });

  it('builds the link from the page without its query, so the access token is not shared', () => {
    expect(shareUrl('http://127.0.0.1:7777/?token=secret&role=viewer#old', 'playground=zAA')).toBe('http://127.0.0.1:7777/#playground=zAA');
  });

  it.each([
    ['no scenario in the link', 'http://127.0.0.1:7777/#view=pages', 'notALink'],
    ['an unknown format letter', 'playground=q1234', 'linkVersion'],
    ['characters outside base64url', 'playground=z$$$$', 'linkEncoding'],
    ['bytes that are not deflate data', `playground=z${base64Url(new Uint8Array([255, 255, 255, 255, 1, 2, 3]))}`, 'linkCompression'],
    ['text that is not JSON', `playground=j${base64Url(new TextEncoder().encode('{"name": '))}`, 'linkJson'],
    ['JSON that is not a scenario', `playground=j${base64Url(new TextEncoder().encode('[1,2,3]'))}`, 'notScenario'],
    ['a scenario without code', `playground=j${base64Url(new TextEncoder().encode('{"name":"x","inputs":[]}'))}`, 'fieldType'],
    [
      'an input that is not a C identifier',
      `playground=j${base64Url(new TextEncoder().encode('{"name":"x","code":"","inputs":[{"name":"a b","ctype":"size_t"}]}'))}`,
      'badInputName',
    ],
    ['a link longer than the limit', `playground=j${'A'.repeat(200_004)}`, 'linkTooLong'],
  ])('refuses %s', async (_, link, key) => {
    const decoded = await decodeShare(link);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.problem.key).toBe(key);
  });

  it('refuses a small link that inflates past the size limit (a link bomb)', async () => {
    const bomb = await deflate(JSON.stringify({ name: 'x', code: ' '.repeat(MAX_JSON_BYTES * 3), inputs: [], setup: '' }));
    expect(bomb.length).toBeLessThan(10_000);
    const decoded = await decodeShare(`playground=z${base64Url(bomb)}`);
    expect(decoded).toEqual({ ok: false, problem: { key: 'linkTooLarge', values: { max: MAX_JSON_BYTES } } });
  });

  it('refuses oversized fields even in a valid scenario', async () => {
    const doc = { name: 'x', code: 'y'.repeat(100_001), inputs: [], setup: '' };
    const decoded = await decodeShare(await encodeShare(doc));
    expect(decoded).toEqual({ ok: false, problem: { key: 'tooLong', values: { field: 'code', max: 100_000 } } });
  });
});
