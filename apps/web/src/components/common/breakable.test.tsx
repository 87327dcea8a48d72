import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Breakable } from './Breakable.tsx';

describe('Breakable', () => {
  it('lets a C name wrap only after its underscores', () => {
    expect(renderToStaticMarkup(<Breakable text="ACL_MEM_MALLOC_HUGE_FIRST" />)).toBe('ACL_<wbr/>MEM_<wbr/>MALLOC_<wbr/>HUGE_<wbr/>FIRST');
  });

  it('leaves text without underscores alone', () => {
    expect(renderToStaticMarkup(<Breakable text="0x100000000000" />)).toBe('0x100000000000');
  });
});
