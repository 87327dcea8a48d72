// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { type AppStore, createAppStore } from '../../store/app-store.ts';
import { ImportBanner } from './ImportBanner.tsx';

const facts: ImportedFacts = {
  name: 'job.pickle',
  bytes: 1000,
  format: 'torch_npu',
  formatEvidence: '',
  profile: 'Ascend910B2',
  pageSize1g: false,
  timeBasis: 'entry order',
  traceEntries: 0,
  segments: 1,
  inconsistent: 0,
  finalMismatch: 0,
  devices: 1,
};

function banner(shown: ImportedFacts, prepare: (store: AppStore) => void = () => {}, language: 'en' | 'zh' = 'en'): HTMLElement | null {
  const store = createAppStore();
  prepare(store);
  return mountDom(<ImportBanner facts={shown} />, { language, store }).get('import-banner') as HTMLElement | null;
}

describe('the import banner says where an import stands (data-import-phase, what scripts and the bench wait on)', () => {
  it('a whole file is complete, with no segments-only note', () => {
    const shown = banner(facts);
    expect(shown?.getAttribute('data-import-phase')).toBe('complete');
    expect(shown?.querySelector('[data-testid=import-segments-only]')).toBeNull();
  });

  it('the segments-first view is reading while the worker reads on', () => {
    const shown = banner({ ...facts, segmentsOnly: true }, (store) =>
      store.getState().setImporting({ name: 'job.pickle', bytesRead: 10, total: 1000 }),
    );
    expect(shown?.getAttribute('data-import-phase')).toBe('reading');
    expect(shown?.textContent).toContain('shown while its trace is read');
  });

  it('a trace that broke after the segments were shown is trace-failed; one the user stopped is cancelled', () => {
    const failed = banner({ ...facts, segmentsOnly: true }, (store) =>
      store.getState().setImportProblem({ name: 'job.pickle', kind: 'format', message: 'truncated', at: 900 }),
    );
    expect(failed?.getAttribute('data-import-phase')).toBe('trace-failed');
    expect(failed?.textContent).toContain('could not be read');
    const cancelled = banner({ ...facts, segmentsOnly: true });
    expect(cancelled?.getAttribute('data-import-phase')).toBe('cancelled');
    expect(cancelled?.textContent).toContain('cancelled');
  });
});

describe('the banner of an msMemScope dump says which page sizes were recorded', () => {
  const dump: ImportedFacts = { ...facts, name: 'memscope_dump_1.csv', format: 'msmemscope' };
  const modeledText = (halPages: ImportedFacts['halPages'], language: 'en' | 'zh' = 'en'): string => {
    const text = banner(halPages === undefined ? dump : { ...dump, halPages }, undefined, language)?.querySelector(
      '[data-testid=import-banner-modeled]',
    )?.textContent;
    return text ?? '';
  };

  it('all recorded, some, or none (and facts from before halPages was counted)', () => {
    expect(modeledText({ recorded: 3, modeled: 0 })).toBe(
      'page sizes as msMemScope recorded them (HAL page_type); which frames, modeled on Ascend910B2',
    );
    expect(modeledText({ recorded: 1, modeled: 2 })).toBe(
      'page sizes recorded for 1 of 3 HAL allocations (page_type), the rest modeled as huge-first ACL mallocs; which frames, modeled on Ascend910B2',
    );
    const none = 'page placement modeled: each recorded HAL allocation as a huge-first ACL malloc on Ascend910B2';
    expect(modeledText({ recorded: 0, modeled: 3 })).toBe(none);
    expect(modeledText(undefined)).toBe(none);
  });

  it('in Chinese too', () => {
    expect(modeledText({ recorded: 3, modeled: 0 }, 'zh')).toBe(
      '页大小取自 msMemScope 的记录（HAL page_type）；使用哪些物理帧在 Ascend910B2 上建模',
    );
    expect(modeledText({ recorded: 1, modeled: 2 }, 'zh')).toContain('3 个 HAL 分配中 1 个的页大小有记录');
  });
});
