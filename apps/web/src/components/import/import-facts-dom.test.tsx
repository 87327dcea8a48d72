// @vitest-environment happy-dom
import { act } from 'react';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import type { ImportedFacts, ModelOptions } from '../../model/import/import-protocol.ts';
import { type AppStore, createAppStore } from '../../store/app-store.ts';
import { ImportFacts } from './ImportFacts.tsx';

const facts: ImportedFacts = {
  name: 'job.pickle',
  bytes: 1000,
  format: 'pytorch_cuda',
  formatEvidence: 'allocator_settings names PYTORCH_CUDA_ALLOC_CONF',
  profile: 'Ascend910B2',
  pageSize1g: false,
  timeBasis: 'time_us',
  traceEntries: 10,
  segments: 2,
  inconsistent: 0,
  finalMismatch: 0,
  devices: 1,
  allocatorSettings: [
    ['PYTORCH_CUDA_ALLOC_CONF', ''],
    ['expandable_segments', 'True'],
    ['max_split_size', '-1'],
  ],
};

function mount(shown: ImportedFacts, language: 'en' | 'zh' = 'en', prepare: (store: AppStore) => void = () => {}) {
  const remodels: ModelOptions[] = [];
  const store = createAppStore();
  prepare(store);
  const { get, unmount } = mountDom(<ImportFacts facts={shown} />, {
    language,
    store,
    fileActions: { remodel: (options) => remodels.push(options) },
  });
  return { remodels, get, unmount };
}

describe('the recorded file panel: allocator settings and how the pages are modeled', () => {
  it('lists the allocator settings as recorded, an empty value said so', () => {
    const { get } = mount(facts);
    const rows = [...(get('import-settings')?.querySelectorAll('.fact') ?? [])].map((row) => [
      row.querySelector('dt')?.textContent,
      row.querySelector('dd')?.textContent,
    ]);
    expect(rows).toEqual([
      ['PYTORCH_CUDA_ALLOC_CONF', '(empty)'],
      ['expandable_segments', 'True'],
      ['max_split_size', '-1'],
    ]);
  });

  it('a torch_npu file says it records none, in both languages; an msMemScope dump has no such section', () => {
    const { allocatorSettings: _, ...rest } = facts;
    const npu: ImportedFacts = { ...rest, format: 'torch_npu' };
    expect(mount(npu).get('import-settings')?.textContent).toContain('torch_npu writes no allocator_settings');
    expect(mount(npu, 'zh').get('import-settings')?.textContent).toContain('torch_npu 不写 allocator_settings');
    expect(mount({ ...npu, format: 'msmemscope' }).get('import-settings')).toBeNull();
  });

  it('another profile or page_size:1g asks for the file to be modeled again, keeping the other choice', () => {
    const { get, remodels } = mount({ ...facts, pageSize1g: true });
    const select = get('import-model-profile') as HTMLSelectElement;
    expect([...select.options].map((option) => option.value)).toEqual(['Ascend910B2', 'Ascend910B4', 'Ascend910_9391', 'Ascend310P3']);
    act(() => {
      select.value = 'Ascend310P3';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const box = get('import-model-1g') as HTMLInputElement;
    expect(box.checked).toBe(true);
    act(() => box.click());
    expect(remodels).toEqual([
      { profile: 'Ascend310P3', pageSize1g: true },
      { profile: 'Ascend910B2', pageSize1g: false },
    ]);
  });

  it("an msMemScope dump's physical handles are named with why their place is modeled, one or many, in both languages", () => {
    const dump: ImportedFacts = { ...facts, format: 'msmemscope', halHandles: 1 };
    expect(mount(dump).get('import-hal-handles')?.textContent).toMatch(/^1 HAL row is a physical handle \(alloc_type create/);
    expect(mount({ ...dump, halHandles: 2 }).get('import-hal-handles')?.textContent).toMatch(/^2 HAL rows are physical handles/);
    expect(mount({ ...dump, halHandles: 2 }, 'zh').get('import-hal-handles')?.textContent).toContain('2 条 HAL 记录是物理句柄');
    expect(mount({ ...dump, halHandles: 0 }).get('import-hal-handles')).toBeNull();
  });

  it('waits while a file is being read', () => {
    const { get } = mount(facts, 'en', (store) => store.getState().setImporting({ name: 'job.pickle', bytesRead: 1, total: 10 }));
    expect((get('import-model') as HTMLFieldSetElement).disabled).toBe(true);
  });
});
