// @vitest-environment happy-dom
import type { TraceSummary } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { mountDom } from '../../../test/dom-mount.tsx';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { ImportBanner } from './ImportBanner.tsx';
import { TraceSummaryPanel } from './TraceSummaryPanel.tsx';

const MiB = 1024 * 1024;
const actions = {
  alloc: 6,
  free_requested: 0,
  free_completed: 5,
  segment_alloc: 1,
  segment_free: 0,
  segment_map: 0,
  segment_unmap: 0,
  snapshot: 0,
  oom: 0,
  workspace_snapshot: 0,
};
const summary: TraceSummary = {
  entries: 12,
  devices: [
    {
      device: 0,
      entries: 12,
      actions,
      bucketEntries: 4,
      allocatedMax: [2 * MiB, 6 * MiB, 3 * MiB],
      reservedMax: [20 * MiB, 20 * MiB, 20 * MiB],
      peakAllocated: { bytes: 6 * MiB, entry: 5 },
      peakReserved: { bytes: 20 * MiB, entry: 0 },
    },
  ],
};
const facts: ImportedFacts = {
  name: 'huge.pickle',
  bytes: 500 * MiB,
  format: 'torch_npu',
  formatEvidence: '',
  profile: 'Ascend910B2',
  pageSize1g: false,
  timeBasis: 'entry order',
  traceEntries: 12,
  segments: 1,
  inconsistent: 0,
  finalMismatch: 0,
  devices: 1,
  segmentsOnly: true,
  traceSummary: summary,
};

function mount(language: 'en' | 'zh') {
  return mountDom(
    <>
      <ImportBanner facts={facts} />
      <TraceSummaryPanel summary={summary} />
    </>,
    { language },
  ).container;
}

describe('a summarised trace', () => {
  it('the banner says the trace was counted, not kept; the panel draws each bucket and names the peaks', () => {
    const container = mount('en');
    const banner = container.querySelector('[data-testid=import-banner]');
    expect(banner?.getAttribute('data-import-phase')).toBe('summarised');
    expect(container.querySelector('[data-testid=import-segments-only]')?.textContent).toMatch(
      /12 entries .* \(up to 12,000,000 entries\), so it was counted as it was read/,
    );
    const paths = container.querySelectorAll('[data-testid=profiler-chart] path[data-field=allocated]');
    expect(paths).toHaveLength(1);
    // Three buckets, three points: M, L, L.
    expect(paths[0]?.getAttribute('d')?.match(/[ML]/g)).toHaveLength(3);
    expect(container.querySelector('[data-testid=trace-summary-peak-allocated]')?.textContent).toMatch(/6(\.0+)? MiB at entry 5/);
    const header = [...container.querySelectorAll('[data-testid=trace-summary-devices] th')].map((th) => th.textContent);
    expect(header).toContain('alloc');
    expect(header).toContain('free_completed');
    expect(header).not.toContain('oom');
  });

  it('speaks Chinese', () => {
    const container = mount('zh');
    expect(container.querySelector('#trace-summary-title')?.textContent).toBe('轨迹摘要：12 条');
    expect(container.querySelector('[data-testid=import-segments-only]')?.textContent).toContain('只做了统计');
  });
});
