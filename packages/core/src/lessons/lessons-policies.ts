import { HUGE_FIRST_THRESHOLD } from '../model/malloc-policy.ts';
import { KiB, MiB } from '../units/bytes.ts';
import type { Lesson } from './lesson.ts';
import { allocs, largestWithin } from './world.ts';

const HUGE_PAGE = 2 * MiB;

/** Lesson 1: the page policies of aclrtMalloc and the 1 MiB HUGE_FIRST threshold its padding crosses. */
export const PAGE_POLICIES: Lesson = {
  id: 'page-policies',
  title: { en: 'Page policies and the 1 MiB threshold', zh: '内存页策略与1 MiB阈值' },
  summary: {
    en: 'Which pages HUGE_FIRST, NORMAL_ONLY and aclrtMallocAlign32 take, and why 1 MiB with aclrtMalloc is not "1 MiB or less".',
    zh: 'HUGE_FIRST、NORMAL_ONLY与aclrtMallocAlign32分别占用哪种页，以及为什么aclrtMalloc申请1 MiB并不算“1 MiB及以下”。',
  },
  startsFrom: 'policies',
  steps: [
    {
      id: 'padding-crosses',
      scenario: 'policies',
      goal: {
        en: 'Allocate 1 MiB with aclrtMalloc and HUGE_FIRST, and see it take a 2 MiB huge page.',
        zh: '用aclrtMalloc以HUGE_FIRST申请1 MiB，观察它占用了一个2 MiB大页。',
      },
      hints: [
        {
          en: 'The "Page policies side by side" scenario does this first: step it with n in the playground.',
          zh: '“内存页策略对比”场景的第一个调用就是它：在代码演练中按n单步执行。',
        },
        {
          en: 'Or Actions ▸ Malloc: size 1 MiB, policy HUGE_FIRST, Enter.',
          zh: '或者在“操作 ▸ 分配”中：大小填1 MiB，策略选HUGE_FIRST，按回车。',
        },
      ],
      explanation: {
        en: 'aclrtMalloc adds 32 B of padding and rounds to 32 B: 1,048,576 B becomes 1,048,608 B (DM-3). That is above the 1 MiB threshold, so HUGE_FIRST takes a 2 MiB huge page (DM-4).',
        zh: 'aclrtMalloc会加32 B补齐并按32 B取整：1,048,576 B变为1,048,608 B（DM-3）。它超过了1 MiB阈值，因此HUGE_FIRST占用一个2 MiB大页（DM-4）。',
      },
      rules: ['DM-3', 'DM-4'],
      met: (world) => allocs(world, { fn: 'aclrtMalloc', policy: 'HUGE_FIRST', size: MiB, pageClass: 'huge' }).length > 0,
    },
    {
      id: 'align32-stays',
      scenario: 'policies',
      goal: {
        en: 'Allocate 1 MiB with aclrtMallocAlign32 and HUGE_FIRST: it stays on 4 KiB pages.',
        zh: '用aclrtMallocAlign32以HUGE_FIRST申请1 MiB：它仍使用4 KiB普通页。',
      },
      hints: [
        {
          en: 'In the scenario it is the fourth allocation of the loop; in Actions ▸ Malloc choose the function aclrtMallocAlign32.',
          zh: '在场景中它是循环里的第四个分配；在“操作 ▸ 分配”中把函数选为aclrtMallocAlign32。',
        },
      ],
      explanation: {
        en: 'aclrtMallocAlign32 adds no padding, it only rounds to 32 B (DM-3): 1,048,576 B is not above 1 MiB, so HUGE_FIRST takes 256 normal pages of 4 KiB (DM-4, DM-11).',
        zh: 'aclrtMallocAlign32不加补齐，只按32 B取整（DM-3）：1,048,576 B没有超过1 MiB，因此HUGE_FIRST占用256个4 KiB普通页（DM-4、DM-11）。',
      },
      rules: ['DM-3', 'DM-4', 'DM-11'],
      met: (world) =>
        allocs(world, { fn: 'aclrtMallocAlign32', policy: 'HUGE_FIRST', size: MiB, pageClass: 'normal' }).some(
          (a) => a.fallback === undefined,
        ),
    },
    {
      id: 'normal-only',
      scenario: 'policies',
      goal: {
        en: 'Allocate more than 1 MiB with NORMAL_ONLY: normal pages, whatever the size.',
        zh: '以NORMAL_ONLY申请超过1 MiB的内存：无论大小都使用普通页。',
      },
      hints: [
        {
          en: 'The scenario allocates 3 MiB with NORMAL_ONLY in its second round; Actions ▸ Malloc works too.',
          zh: '场景在第二轮中以NORMAL_ONLY申请3 MiB；也可以用“操作 ▸ 分配”。',
        },
      ],
      explanation: {
        en: 'NORMAL_ONLY never takes huge pages (DM-6): 3 MiB + 32 B of padding is 3,145,760 B, which takes 769 pages of 4 KiB (DM-3, DM-11).',
        zh: 'NORMAL_ONLY从不占用大页（DM-6）：3 MiB加32 B补齐为3,145,760 B，占用769个4 KiB页（DM-3、DM-11）。',
      },
      rules: ['DM-6', 'DM-3', 'DM-11'],
      met: (world) => allocs(world, { policy: 'NORMAL_ONLY', pageClass: 'normal' }).some((a) => a.size > HUGE_FIRST_THRESHOLD),
    },
    {
      id: 'threshold-edge',
      goal: {
        en: 'Find the largest size that aclrtMalloc with HUGE_FIRST still keeps on normal pages.',
        zh: '找出aclrtMalloc以HUGE_FIRST申请时仍使用普通页的最大大小。',
      },
      hints: [
        {
          en: 'The padding adds 32 B and rounds up to 32 B: which size pads to exactly 1,048,576 B?',
          zh: '补齐会加32 B并向上取整到32 B：哪个大小补齐后恰好是1,048,576 B？',
        },
        {
          en: '1 MiB − 32 B: type 1048544 in Actions ▸ Malloc with HUGE_FIRST (and try 1048545 to see it cross).',
          zh: '1 MiB − 32 B：在“操作 ▸ 分配”中以HUGE_FIRST输入1048544（再试1048545，看它越过阈值）。',
        },
      ],
      explanation: {
        en: 'padded = ⌊(size + 32 + 32 − 1) / 32⌋ × 32 (DM-3). 1,048,544 B pads to 1,048,576 B, not above 1 MiB, so normal pages; one byte more pads to 1,048,608 B and takes a huge page (DM-4).',
        zh: '补齐后大小 = ⌊(size + 32 + 32 − 1) / 32⌋ × 32（DM-3）。1,048,544 B补齐为1,048,576 B，没有超过1 MiB，因此用普通页；再多一个字节就补齐为1,048,608 B，占用大页（DM-4）。',
      },
      rules: ['DM-3', 'DM-4'],
      met: (world) =>
        allocs(world, { fn: 'aclrtMalloc', policy: 'HUGE_FIRST', pageClass: 'normal' }).some(
          (a) => a.fallback === undefined && largestWithin(world, a, HUGE_FIRST_THRESHOLD),
        ),
    },
  ],
};

/** Lesson 2: whole pages are taken, so padding and rounding cost memory (DM-3, DM-11). */
export const ROUNDING_WASTE: Lesson = {
  id: 'rounding-waste',
  title: { en: 'Rounding waste', zh: '取整浪费' },
  summary: {
    en: 'Every allocation takes whole pages of its kind; the 32 B of padding can cost a whole extra page.',
    zh: '每次分配都占用整数个页；32 B的补齐可能多占一整页。',
  },
  startsFrom: 'policies',
  steps: [
    {
      id: 'three-mib',
      scenario: 'policies',
      goal: {
        en: 'Allocate 3 MiB with HUGE_FIRST: two 2 MiB huge pages, 1 MiB of waste.',
        zh: '以HUGE_FIRST申请3 MiB：占用两个2 MiB大页，浪费1 MiB。',
      },
      hints: [
        {
          en: 'The "Page policies side by side" scenario does it in its second round (run it with r), or use Actions ▸ Malloc.',
          zh: '“内存页策略对比”场景在第二轮中会这样做（按r运行），也可以用“操作 ▸ 分配”。',
        },
      ],
      explanation: {
        en: '3 MiB + 32 B = 3,145,760 B needs two 2 MiB pages: 4 MiB are taken for 3 MiB, 1,048,576 B of waste (DM-3, DM-11). The inspector shows it for the selected buffer.',
        zh: '3 MiB + 32 B = 3,145,760 B需要两个2 MiB页：为3 MiB占用了4 MiB，浪费1,048,576 B（DM-3、DM-11）。选中该缓冲区后检查器会显示这一点。',
      },
      rules: ['DM-3', 'DM-11'],
      met: (world) => allocs(world, { policy: 'HUGE_FIRST', size: 3 * MiB, pageClass: 'huge', pages: 2 }).length > 0,
    },
    {
      id: 'small-normal',
      goal: {
        en: 'Allocate 4 KiB with aclrtMalloc and NORMAL_ONLY, and see it take two 4 KiB pages.',
        zh: '用aclrtMalloc以NORMAL_ONLY申请4 KiB，观察它占用了两个4 KiB页。',
      },
      hints: [{ en: 'Actions ▸ Malloc: size 4 KiB, policy NORMAL_ONLY.', zh: '“操作 ▸ 分配”：大小4 KiB，策略NORMAL_ONLY。' }],
      explanation: {
        en: '4,096 B + 32 B of padding = 4,128 B, 32 B more than one page: two pages, 8 KiB for 4 KiB asked (DM-3, DM-11).',
        zh: '4,096 B加32 B补齐为4,128 B，比一页多32 B：占用两页，申请4 KiB却占了8 KiB（DM-3、DM-11）。',
      },
      rules: ['DM-3', 'DM-11'],
      met: (world) => allocs(world, { fn: 'aclrtMalloc', policy: 'NORMAL_ONLY', size: 4 * KiB, pages: 2 }).length > 0,
    },
    {
      id: 'align32-exact',
      goal: {
        en: 'Allocate 4 KiB with aclrtMallocAlign32 and NORMAL_ONLY: exactly one page, no waste.',
        zh: '用aclrtMallocAlign32以NORMAL_ONLY申请4 KiB：恰好一页，没有浪费。',
      },
      hints: [
        {
          en: 'Actions ▸ Malloc: function aclrtMallocAlign32, size 4 KiB, NORMAL_ONLY.',
          zh: '“操作 ▸ 分配”：函数aclrtMallocAlign32，大小4 KiB，NORMAL_ONLY。',
        },
      ],
      explanation: {
        en: 'aclrtMallocAlign32 adds no padding (DM-3): 4,096 B is one whole 4 KiB page (DM-11).',
        zh: 'aclrtMallocAlign32不加补齐（DM-3）：4,096 B正好是一个4 KiB页（DM-11）。',
      },
      rules: ['DM-3', 'DM-11'],
      met: (world) => allocs(world, { fn: 'aclrtMallocAlign32', size: 4 * KiB, pageClass: 'normal', pages: 1 }).length > 0,
    },
    {
      id: 'huge-edge',
      goal: {
        en: 'Find the largest size aclrtMalloc with HUGE_ONLY fits in one 2 MiB huge page.',
        zh: '找出aclrtMalloc以HUGE_ONLY申请时能放进一个2 MiB大页的最大大小。',
      },
      hints: [
        { en: 'Try exactly 2 MiB first: how many huge pages does it take?', zh: '先试恰好2 MiB：它占用几个大页？' },
        {
          en: '2 MiB − 32 B: type 2097120 in Actions ▸ Malloc with HUGE_ONLY.',
          zh: '2 MiB − 32 B：在“操作 ▸ 分配”中以HUGE_ONLY输入2097120。',
        },
      ],
      explanation: {
        en: '2,097,120 B pads to 2,097,152 B: one huge page, 32 B of waste. 2 MiB itself pads to 2,097,184 B and takes two huge pages: 2 MiB of waste (DM-3, DM-5, DM-11).',
        zh: '2,097,120 B补齐为2,097,152 B：一个大页，浪费32 B。恰好2 MiB会补齐为2,097,184 B，占用两个大页：浪费2 MiB（DM-3、DM-5、DM-11）。',
      },
      rules: ['DM-3', 'DM-5', 'DM-11'],
      met: (world) =>
        allocs(world, { fn: 'aclrtMalloc', policy: 'HUGE_ONLY', pageClass: 'huge', pages: 1 }).some((a) =>
          largestWithin(world, a, HUGE_PAGE),
        ),
    },
  ],
};
