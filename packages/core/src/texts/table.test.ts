import { describe, expect, it } from 'vitest';
import { aclrtMemMallocPolicy } from '../acl/enums.ts';
import type { CallEvent, MemoryEvent } from '../model/events.ts';
import { SimHost } from '../sim/sim-host.ts';
import { SimRuntime } from '../sim/sim-runtime.ts';
import { placeholdersOf } from './placeholders.ts';
import { describeText, TEXT_PARTS, TEXT_TEMPLATES_EN, text } from './table.ts';

const FORMATS = new Set(['int', 'size', 'text']);
const codes = Object.keys(TEXT_TEMPLATES_EN) as (keyof typeof TEXT_TEMPLATES_EN)[];

/** One value per placeholder: numbers for formatted ones, a code of the table for nested texts. */
function sampleValues(template: string): Record<string, number | string> {
  const values: Record<string, number | string> = {};
  for (const item of placeholdersOf(template)) {
    const [name = '', format] = item.split(', ');
    values[name] = format === 'text' ? 'side-host' : format === undefined ? `‹${name}›` : 4096;
  }
  return values;
}

describe('the table of message codes', () => {
  it('no code is in two parts, and the table is exactly their union', () => {
    const all = Object.values(TEXT_PARTS).flatMap((part) => Object.keys(part));
    const twice = all.filter((code, index) => all.indexOf(code) !== index);
    expect(twice).toEqual([]);
    expect(all.sort()).toEqual([...codes].sort());
  });

  it('codes are short kebab-case keys (safe as i18next keys: no dots or colons)', () => {
    for (const code of codes) expect(code, code).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    for (const code of codes) expect(code.length, code).toBeLessThanOrEqual(64);
  });

  it.each(codes)('%s: placeholders are words with a known format or none, and every one is filled', (code) => {
    const template = TEXT_TEMPLATES_EN[code];
    for (const item of placeholdersOf(template)) {
      const [name = '', format] = item.split(', ');
      expect(name, `${code}: ${item}`).toMatch(/^[a-zA-Z]\w*$/);
      // i18next reads these option names itself (plurals, context, defaults): a placeholder must not use them.
      expect(['count', 'context', 'defaultValue', 'lng', 'ns', 'replace', 'ordinal', 'returnObjects'], code).not.toContain(name);
      if (format !== undefined) expect(FORMATS, `${code}: ${item}`).toContain(format);
    }
    const filled = describeText({ code, values: sampleValues(template) });
    expect(filled).not.toMatch(/\{\{|\}\}/);
    // fillTemplate writes "?" for a missing value: no more of them than the template itself has.
    expect(filled.split('?').length).toBe(template.split('?').length);
  });

  it('a nested text is filled from the same values', () => {
    const inner = text('null-arg', { name: 'dst' });
    expect(describeText(text('batch-copy', { ...inner.values, copy: 2, problem: inner.code }))).toBe('copy 2: dst is NULL (CP-11)');
    expect(describeText({ code: 'no-such-code' })).toBe('no-such-code');
  });
});

describe('the simulator sends every failure as a code', () => {
  async function failures(): Promise<CallEvent[]> {
    const host = new SimHost();
    const events: MemoryEvent[] = [];
    host.subscribe((batch) => events.push(...batch));
    const rt = new SimRuntime(host);
    await rt.aclrtMalloc({ size: 4096, policy: 0 }); // no device yet (LT-2)
    await rt.aclInit({ configPath: null });
    await rt.aclInit({ configPath: null }); // repeated (LT-1)
    await rt.aclrtSetDevice({ deviceId: 0 });
    await rt.aclrtSetDevice({ deviceId: 99 });
    await rt.aclrtFree({ devPtr: '0x0' });
    await rt.aclrtFree({ devPtr: '0x1234' });
    await rt.aclrtMalloc({ size: 0, policy: 0 });
    await rt.aclrtMalloc({ size: 2 ** 50, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_ONLY });
    await rt.aclrtMemcpy({ dst: '0x0', destMax: 8, src: '0x0', count: 8, kind: 0 });
    await rt.aclrtSynchronizeStreamWithTimeout({ stream: '0x77', timeout: 0 });
    await rt.aclrtDestroyStream({ stream: '0x77' });
    return events.filter((event): event is CallEvent => event.kind === 'call' && event.ret !== 0);
  }

  it('each failed call event carries a code whose English text is its message', async () => {
    const failed = await failures();
    expect(failed.length).toBe(10);
    for (const event of failed) {
      expect(event.messageCode, event.fn).toBeDefined();
      if (event.messageCode !== undefined) expect(describeText(event.messageCode)).toBe(event.message);
    }
    expect(failed.map((event) => event.messageCode?.code)).toEqual([
      'no-current-device',
      'init-repeated',
      'device-missing',
      'free-null',
      'free-not-live',
      'malloc-size-zero',
      'pages-exhausted-huge',
      'null-arg',
      'timeout-bad',
      'stream-not-live',
    ]);
  });
});
