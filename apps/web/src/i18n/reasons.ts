import { REASON_TEMPLATES_EN, type ReasonCode } from '@pagelens/core';
import { defineMessages } from './define.ts';

/**
 * Decision reasons in Chinese, one per core reason code (the English ones are core's own
 * templates). The Record type makes a missing or unknown code a type error.
 */
export const REASON_TEMPLATES_ZH: Readonly<Record<ReasonCode, string>> = {
  'size-zero': 'size 不能为 0',
  'null-out': '{{param}} 为 NULL：结果无处写入',
  pad: '{{size, int}} B + {{pad}} B 填充，向上对齐到 32 B = {{padded, int}} B',
  align32: '{{size, int}} B 向上对齐到 32 B = {{padded, int}} B（{{fn}} 不加填充）',
  'giant-no-pad': 'HUGE1G 策略不加填充',
  'huge-first-small': '{{padded, int}} B ≤ 1 MiB → HUGE_FIRST 使用普通页',
  'huge-first-large': '{{padded, int}} B > 1 MiB → HUGE_FIRST 使用 2 MiB 大页',
  'huge-first-fallback': '需要 {{needed, int}} 个 2 MiB 大页，只剩 {{freeHuge, int}} 个空闲 → HUGE_FIRST 退回普通页',
  'huge-only': 'HUGE_ONLY 只使用 2 MiB 大页',
  'normal-only': 'NORMAL_ONLY 只使用普通页',
  giant: 'HUGE1G_ONLY 只使用 1 GiB 大页',
  'giant-unsupported': '{{profile}} 不支持 1 GiB 大页',
  'p2p-generic': '通过 {{fn}} 时，{{policyName}} 走通用路径：使用普通页（建模结果；请改用 aclrtMallocWithCfg）',
  'p2p-unsupported': '{{profile}} 不支持 Device 间（P2P）内存',
  'p2p-marked': 'P2P 策略把内存标记为用于 Device 间拷贝',
  'bandwidth-hint': '已接受带宽/访问位 {{bits}}；物理内存类型由系统选择',
  'flags-need-withcfg': '策略 {{policy}} 含有只有 aclrtMallocWithCfg 接受的位（按无效参数建模）',
  'cached-policy': 'aclrtMallocCached 只接受 HUGE_FIRST、HUGE_ONLY、NORMAL_ONLY 或 HUGE1G_ONLY',
  'unknown-policy': '策略 {{policy}} 不是已知值：按默认处理，2 MiB 及以上用大页，以下用普通页',
  occupies: '{{pages, int}} × {{pageSize, size}} 页 = 占用 {{occupied, size}}；{{waste, int}} B 未使用',
  exhausted: '空闲的{{pageClass}}页不足：需要 {{needed, int}}，空闲 {{available, int}}',
  fragmented: '总共有 {{freeBytes, size}} 空闲，但凑不出完整的{{pageClass}}页',
  'copy-pinned': '锁页 Host 内存：以 {{rate}} GB/s 直接 DMA',
  'copy-pageable': '可分页 Host 内存：分 {{stages, int}} 块经中转缓冲区，{{rate}} GB/s',
  'copy-blocks': 'Host 侧是可分页内存，因此 aclrtMemcpyAsync 要等拷贝完成才返回',
  'copy-device': '同一 Device 内拷贝，{{rate}} GB/s',
  'copy-peer': 'Device {{src}} 到 Device {{dst}}，经 Device 互联，{{rate}} GB/s',
  'copy-host': 'Host 到 Host memcpy，{{rate}} GB/s',
  'copy-waits': '等待 {{resource}} 上先前的工作 {{waitNs, int}} ns',
  'value-wait-unmet': '目前已排队的写入都不满足 {{addr}} 处的条件：在硬件上该流会一直等到满足为止；模拟器不阻塞它',
};

export const REASON_TEMPLATES_EN_COPY: Readonly<Record<ReasonCode, string>> = REASON_TEMPLATES_EN;

/**
 * Reasons the acl backend gives for what it observed on a real runtime (its observe.ts and
 * effects-memory.ts), in both languages. `observed-pool` names its evidence; i18next fills the
 * values first and then resolves the nested `$t(…)`, so one code reads naturally for each evidence.
 */
export const OBSERVED_REASONS = defineMessages(
  {
    'observed-pool': '$t(reasons.evidence.{{evidence}})',
    evidence: {
      'pointer-attributes':
        'aclrtPointerGetAttributes reports {{pointerPageSize, size}} pages: the $t(reasons.pool.{{pageClass}}) served it (observed)',
      'pool-delta':
        'aclrtGetMemInfo: free memory of the $t(reasons.pool.{{pageClass}}) dropped by {{freeDrop, size}}, so that pool served it (observed)',
      rules:
        'no pool reading moved and the device reported no page size: $t(reasons.pages.{{pageClass}}) are the rules’ prediction, not observed',
    },
    pool: { normal: 'normal pool', huge: 'huge pool', giant: 'giant (1 GiB) pool' },
    pages: { normal: 'normal pages', huge: '2 MiB huge pages', giant: '1 GiB giant pages' },
    'copy-observed': 'measured inside the C call: {{durationNs, int}} ns, {{rate}} GB/s',
    'copy-async-observed':
      'aclrtMemcpyAsync returned after {{durationNs, int}} ns; the copy itself is done by the next synchronize (observed)',
  },
  {
    'observed-pool': '$t(reasons.evidence.{{evidence}})',
    evidence: {
      'pointer-attributes':
        'aclrtPointerGetAttributes 报告页大小为 {{pointerPageSize, size}}：由$t(reasons.pool.{{pageClass}})分配（实测）',
      'pool-delta': 'aclrtGetMemInfo：$t(reasons.pool.{{pageClass}})的空闲内存减少了 {{freeDrop, size}}，因此由该内存池分配（实测）',
      rules: '内存池读数没有变化，设备也未报告页大小：使用$t(reasons.pages.{{pageClass}})只是按规则推断，并非实测',
    },
    pool: { normal: '普通页内存池', huge: '大页内存池', giant: '巨页（1 GiB）内存池' },
    pages: { normal: '普通页', huge: '2 MiB 大页', giant: '1 GiB 巨页' },
    'copy-observed': 'C 调用内实测：{{durationNs, int}} ns，{{rate}} GB/s',
    'copy-async-observed': 'aclrtMemcpyAsync 在 {{durationNs, int}} ns 后返回；拷贝本身在下一次同步时完成（实测）',
  },
);
