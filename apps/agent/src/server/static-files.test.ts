import { describe, expect, it } from 'vitest';
import { resolveInside } from './static-files.ts';

describe('resolveInside', () => {
  it.each([
    ['/index.html', '/srv/web/index.html'],
    ['/assets/a.js', '/srv/web/assets/a.js'],
    ['/a/./b.js', '/srv/web/a/b.js'],
  ])('%s stays inside the root', (path, resolved) => expect(resolveInside('/srv/web', path)).toBe(resolved));
  it.each(['/../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/a/../../x', '/%E0%A4%A', '/x%00.js'])('%s is refused', (path) => {
    expect(resolveInside('/srv/web', path)).toBeUndefined();
  });
});
