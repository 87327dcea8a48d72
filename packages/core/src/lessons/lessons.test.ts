import { describe, expect, it } from 'vitest';
import { GiB, KiB, MiB } from '../units/bytes.ts';
import { goalsMet, LESSONS, lessonById, lessonTableProblems } from './index.ts';
import { Student } from './student.test-helper.ts';
import { allocs } from './world.ts';

/** One move of the scripted student, and the steps whose goals it newly meets (none other may change). */
interface Move {
  readonly what: string;
  readonly run: (student: Student) => Promise<unknown>;
  readonly meets: readonly string[];
  /** Facts the step's explanation states, checked against the simulator after the move. */
  readonly check?: (student: Student) => void;
}

const SCRIPTS: Readonly<Record<string, readonly Move[]>> = {
  'page-policies': [
    { what: 'policies: to the first HUGE_FIRST allocation', run: (s) => s.play('policies', 'ACL_MEM_MALLOC_HUGE_FIRST'), meets: [] },
    {
      what: 'policies: past it, to the HUGE_ONLY line',
      run: (s) => s.play('policies', 'ACL_MEM_MALLOC_HUGE_ONLY'),
      meets: ['padding-crosses'],
      check: (s) => expect(allocs(s.world, { size: MiB, pageClass: 'huge' })[0]).toMatchObject({ padded: 1_048_608, pages: 1 }),
    },
    { what: 'policies: to aclrtMallocAlign32', run: (s) => s.play('policies', 'aclrtMallocAlign32(&ptrs'), meets: [] },
    {
      what: 'policies: to the second round',
      run: (s) => s.play('policies', 'ACL_MEM_MALLOC_HUGE_FIRST);'),
      meets: ['align32-stays'],
      check: (s) => expect(allocs(s.world, { fn: 'aclrtMallocAlign32', size: MiB })[0]).toMatchObject({ padded: MiB, pages: 256 }),
    },
    {
      what: 'policies: to the end',
      run: (s) => s.play('policies'),
      meets: ['normal-only'],
      check: (s) => expect(allocs(s.world, { policy: 'NORMAL_ONLY', size: 3 * MiB })[0]).toMatchObject({ padded: 3_145_760, pages: 769 }),
    },
    { what: '1,048,543 B HUGE_FIRST: normal pages, but not the largest', run: (s) => s.allocate(1_048_543, 'HUGE_FIRST'), meets: [] },
    {
      what: '1,048,545 B HUGE_FIRST: crosses',
      run: (s) => s.allocate(1_048_545, 'HUGE_FIRST'),
      meets: [],
      check: (s) => expect(allocs(s.world, { size: 1_048_545 })[0]).toMatchObject({ padded: 1_048_608, pageClass: 'huge' }),
    },
    {
      what: '1,048,544 B HUGE_FIRST: the largest on normal pages',
      run: (s) => s.allocate(1_048_544, 'HUGE_FIRST'),
      meets: ['threshold-edge'],
      check: (s) => expect(allocs(s.world, { size: 1_048_544 })[0]).toMatchObject({ padded: MiB, pageClass: 'normal' }),
    },
  ],
  'rounding-waste': [
    { what: 'policies: to the first 3 MiB allocation', run: (s) => s.play('policies', 'ACL_MEM_MALLOC_HUGE_ONLY'), meets: [] },
    { what: 'policies: run to the end', run: (s) => s.play('policies'), meets: ['three-mib'] },
    {
      what: '4 KiB NORMAL_ONLY via aclrtMallocAlign32 first (not the aclrtMalloc goal)',
      run: (s) => s.allocate(4 * KiB, 'NORMAL_ONLY', 1, 'aclrtMallocAlign32'),
      meets: ['align32-exact'],
    },
    {
      what: '4 KiB NORMAL_ONLY via aclrtMalloc',
      run: (s) => s.allocate(4 * KiB, 'NORMAL_ONLY'),
      meets: ['small-normal'],
      check: (s) => expect(allocs(s.world, { fn: 'aclrtMalloc', size: 4 * KiB })[0]).toMatchObject({ padded: 4128, pages: 2 }),
    },
    {
      what: '2 MiB HUGE_ONLY: two pages',
      run: (s) => s.allocate(2 * MiB, 'HUGE_ONLY'),
      meets: [],
      check: (s) => expect(allocs(s.world, { size: 2 * MiB, policy: 'HUGE_ONLY' })[0]).toMatchObject({ padded: 2_097_184, pages: 2 }),
    },
    { what: '2,097,119 B HUGE_ONLY: one page, not the largest', run: (s) => s.allocate(2_097_119, 'HUGE_ONLY'), meets: [] },
    {
      what: '2,097,120 B HUGE_ONLY: the largest in one page',
      run: (s) => s.allocate(2_097_120, 'HUGE_ONLY'),
      meets: ['huge-edge'],
      check: (s) => expect(allocs(s.world, { size: 2_097_120 })[0]).toMatchObject({ padded: 2 * MiB, pages: 1 }),
    },
  ],
  fragmentation: [
    { what: 'scenario: to the HUGE_FIRST allocation', run: (s) => s.play('huge-first-fallback', 'ACL_MEM_MALLOC_HUGE_FIRST'), meets: [] },
    { what: 'scenario: past it', run: (s) => s.play('huge-first-fallback', 'void* strict'), meets: ['fallback'] },
    {
      what: 'scenario: to the end (HUGE_ONLY fails, nothing to spare)',
      run: (s) => s.play('huge-first-fallback'),
      meets: ['huge-only-fails'],
    },
    {
      what: 'eight 1 MiB NORMAL_ONLY buffers split eight frames',
      run: (s) => s.allocate(MiB, 'NORMAL_ONLY', 8),
      meets: [],
      check: (s) => {
        // The explanation's figures: 257 pages each, each in a frame of its own (255 pages left free there).
        const eight = allocs(s.world, { policy: 'NORMAL_ONLY', size: MiB }).slice(-8);
        expect(eight.map((a) => a.pages)).toEqual(Array.from({ length: 8 }, () => 257));
        const frames = eight.map((a) => Math.floor((a.runs[0] ?? 0) / 512));
        expect(new Set(frames).size).toBe(8);
        expect(eight.every((a) => a.runs.length === 2)).toBe(true);
      },
    },
    { what: 'the scenario again: HUGE_ONLY fails with megabytes free', run: (s) => s.play('huge-first-fallback'), meets: ['fragmented'] },
  ],
  'tlb-reach': [
    { what: '4 MiB NORMAL_ONLY: within the normal TLB', run: (s) => s.allocate(4 * MiB - 64, 'NORMAL_ONLY'), meets: [] },
    {
      what: '64 MiB NORMAL_ONLY',
      run: (s) => s.allocate(64 * MiB, 'NORMAL_ONLY'),
      meets: ['normal-overflow'],
      check: (s) => expect(allocs(s.world, { size: 64 * MiB })[0]?.pages).toBe(16_385),
    },
    { what: '2 MiB HUGE_FIRST: huge, but within the normal reach', run: (s) => s.allocate(2 * MiB - 64, 'HUGE_FIRST'), meets: [] },
    {
      what: '64 MiB HUGE_FIRST',
      run: (s) => s.allocate(64 * MiB, 'HUGE_FIRST'),
      meets: ['huge-covers'],
      check: (s) => expect(allocs(s.world, { size: 64 * MiB, pageClass: 'huge' })[0]?.pages).toBe(33),
    },
    {
      what: '4 GiB HUGE_ONLY',
      run: (s) => s.allocate(4 * GiB, 'HUGE_ONLY'),
      meets: ['huge-overflow'],
      check: (s) => expect(allocs(s.world, { size: 4 * GiB, pageClass: 'huge' })[0]?.pages).toBe(2049),
    },
    { what: '1 GiB HUGE1G_ONLY: within the huge reach', run: (s) => s.allocate(GiB, 'HUGE1G_ONLY'), meets: [] },
    {
      what: '4 GiB HUGE1G_ONLY',
      run: (s) => s.allocate(4 * GiB, 'HUGE1G_ONLY'),
      meets: ['giant'],
      check: (s) => expect(allocs(s.world, { size: 4 * GiB, pageClass: 'giant' })[0]).toMatchObject({ padded: 4 * GiB, pages: 4 }),
    },
  ],
  'pinned-copies': [
    { what: 'scenario: to the first copy', run: (s) => s.play('pageable-vs-pinned', 'aclrtMemcpy(dev, size, pageable'), meets: [] },
    { what: 'scenario: the pageable copy', run: (s) => s.play('pageable-vs-pinned', 'aclrtMemcpy(dev, size, pinned'), meets: ['staged'] },
    {
      what: 'scenario: the pinned copy',
      run: (s) => s.play('pageable-vs-pinned', 'aclrtMemcpyAsync(dev, size, pinned'),
      meets: ['pinned'],
    },
    {
      what: 'scenario: the async pinned copy',
      run: (s) => s.play('pageable-vs-pinned', 'aclrtMemcpyAsync(dev, size, pageable'),
      meets: ['async-pinned'],
    },
    {
      what: 'scenario: the async pageable copy',
      run: (s) => s.play('pageable-vs-pinned', 'aclrtSynchronizeStream'),
      meets: ['async-pageable'],
    },
    { what: 'scenario: to the end', run: (s) => s.play('pageable-vs-pinned'), meets: [] },
  ],
  'vmm-lifecycle': [
    { what: 'scenario: to aclrtMapMem', run: (s) => s.play('vmm-deferred-free', 'aclrtMapMem'), meets: [] },
    { what: 'scenario: the map', run: (s) => s.play('vmm-deferred-free', 'aclrtFreePhysical(handle)'), meets: ['map'] },
    { what: 'scenario: the deferred free', run: (s) => s.play('vmm-deferred-free', 'aclrtMemset'), meets: ['deferred'] },
    { what: 'scenario: the refused release', run: (s) => s.play('vmm-deferred-free', 'aclrtUnmapMem'), meets: ['release-refused'] },
    { what: 'scenario: the unmap', run: (s) => s.play('vmm-deferred-free', '    ret = aclrtReleaseMemAddress'), meets: ['unmap-frees'] },
    { what: 'scenario: the release', run: (s) => s.play('vmm-deferred-free'), meets: ['release'] },
  ],
};

describe('the lesson table', () => {
  it('holds at least six lessons, each with steps, in both languages', () => {
    expect(LESSONS.length).toBeGreaterThanOrEqual(6);
    for (const lesson of LESSONS) {
      expect(lesson.steps.length, lesson.id).toBeGreaterThanOrEqual(3);
      const texts = [lesson.title, lesson.summary, ...lesson.steps.flatMap((step) => [step.goal, step.explanation, ...step.hints])];
      for (const text of texts) {
        expect(text.en.trim(), lesson.id).not.toBe('');
        expect(text.zh.trim(), lesson.id).not.toBe('');
        // The Chinese text is written in Chinese, not a copy of the English.
        expect(/[\u4e00-\u9fff]/.test(text.zh), `${lesson.id}: ${text.zh}`).toBe(true);
      }
      expect(lesson.steps.every((step) => step.hints.length > 0)).toBe(true);
    }
  });

  it('names only scenarios that exist and cites each rule it lists, in both languages', () => {
    expect(lessonTableProblems()).toEqual([]);
  });

  it('the table checker catches an unknown scenario and a rule listed but not cited', () => {
    const lesson = LESSONS[0];
    const step = lesson?.steps[0];
    if (lesson === undefined || step === undefined) throw new Error('no lesson');
    const broken = { ...lesson, startsFrom: 'nope', steps: [{ ...step, rules: [...step.rules, 'VM-9'] }] };
    expect(lessonTableProblems([broken])).toEqual([
      'page-policies starts from an unknown scenario nope',
      'page-policies/padding-crosses lists VM-9 but does not cite it',
    ]);
  });
});

describe('a scripted student', () => {
  it('has a script for every lesson', () => {
    expect(Object.keys(SCRIPTS).sort()).toEqual(LESSONS.map((lesson) => lesson.id).sort());
  });

  it.each(LESSONS.map((lesson) => [lesson.id] as const))('%s: each goal is met exactly when its move is made', async (id) => {
    const lesson = lessonById(id);
    if (lesson === undefined) throw new Error(`no lesson ${id}`);
    const student = new Student();
    const met = new Set<string>();
    expect(goalsMet(lesson, student.world).some(Boolean), 'nothing is met on a fresh host').toBe(false);
    for (const move of SCRIPTS[id] ?? []) {
      await move.run(student);
      for (const step of move.meets) met.add(step);
      const now = lesson.steps.filter((_, index) => goalsMet(lesson, student.world)[index]).map((step) => step.id);
      expect(now, move.what).toEqual(lesson.steps.map((step) => step.id).filter((step) => met.has(step)));
      move.check?.(student);
    }
    expect(met.size, 'every step was met').toBe(lesson.steps.length);
  });
});
