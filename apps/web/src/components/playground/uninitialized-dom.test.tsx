// @vitest-environment happy-dom
import { UNINITIALIZED, type VariableView } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import { VariablesPanel } from './RunPanels.tsx';

const VARIABLES: VariableView[] = [
  { name: 'virPtr', type: 'void *', value: UNINITIALIZED, scope: 'local', frame: 'main' },
  { name: 'prop', type: 'aclrtPhysicalMemProp', value: `{handleType = ${UNINITIALIZED}, reserve = 0}`, scope: 'local', frame: 'main' },
];

function values(language: 'en' | 'zh'): string[] {
  const { container } = mountDom(<VariablesPanel variables={VARIABLES} />, { language });
  return [...container.querySelectorAll('.pl-value')].map((cell) => cell.textContent ?? '');
}

describe('a never-set variable reads in the UI’s language', () => {
  it('中文', () => {
    expect(values('zh')).toEqual(['（未初始化）', '{handleType = （未初始化）, reserve = 0}']);
  });
  it('English', () => {
    expect(values('en')).toEqual(['(uninitialized)', '{handleType = (uninitialized), reserve = 0}']);
  });
});
