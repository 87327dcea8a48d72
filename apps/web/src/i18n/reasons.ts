import { REASON_TEMPLATES_EN, type ReasonCode } from '@pagelens/core';

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
};

export const REASON_TEMPLATES_EN_COPY: Readonly<Record<ReasonCode, string>> = REASON_TEMPLATES_EN;
