import { describe, expect, it } from 'vitest';
import { jsonBlob } from './json-blob.ts';

describe('jsonBlob', () => {
  it('holds every part in order, across its 8 M-character pieces', async () => {
    const part = `${'x'.repeat(1_000_000)}\n`;
    const parts = Array.from({ length: 20 }, (_, i) => `${i}:${part}`);
    const blob = jsonBlob(parts);
    expect(blob.type).toBe('application/json');
    expect(await blob.text()).toBe(parts.join(''));
    expect(await jsonBlob([]).text()).toBe('');
  });
});
