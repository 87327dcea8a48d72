import { BASE_POLICIES, type BasePolicyKey } from '@pagelens/core';

/**
 * What each base policy does, one line per language: the actions panel's explanation and the TLB
 * view's policy list both show these. The rule IDs are not written here: each line ends with the
 * IDs core's policy table gives that policy (DM-4 … DM-8), so the text and the rules cannot part.
 */
const LINES: { readonly en: Readonly<Record<BasePolicyKey, string>>; readonly zh: Readonly<Record<BasePolicyKey, string>> } = {
  en: {
    HUGE_FIRST:
      'Up to 1 MiB after padding takes normal pages; larger takes 2 MiB huge pages, falling back to normal pages when the huge pool is short',
    HUGE_ONLY: '2 MiB huge pages only; fails with 207001 (ACL_ERROR_RT_MEMORY_ALLOCATION) when the huge pool cannot serve it',
    NORMAL_ONLY: 'Normal pages only: the least rounding waste and the most PTEs, good for many small or short-lived buffers',
    HUGE_FIRST_P2P: 'HUGE_FIRST marked for device-to-device copies; plain aclrtMalloc takes normal pages, WithCfg the huge logic',
    HUGE_ONLY_P2P: 'HUGE_ONLY marked for device-to-device copies; plain aclrtMalloc takes normal pages, WithCfg the huge logic',
    NORMAL_ONLY_P2P: 'Normal pages, marked for device-to-device copies',
    HUGE1G_ONLY:
      '1 GiB pages only, size rounded up to whole GiB; only on products with 1 GiB pages (Atlas A2 910B, A3 910_93), else 207000',
    HUGE1G_ONLY_P2P: '1 GiB pages for device-to-device copies; needs 1 GiB pages and P2P, else 207000',
  },
  zh: {
    HUGE_FIRST: '填充后不超过 1 MiB 时使用普通页；更大时使用 2 MiB 大页，大页池不足时退回普通页',
    HUGE_ONLY: '只用 2 MiB 大页；大页池无法满足时返回 207001，即 ACL_ERROR_RT_MEMORY_ALLOCATION',
    NORMAL_ONLY: '只用普通页：取整浪费最少、PTE 最多，适合大量小块或短生命周期的缓冲区',
    HUGE_FIRST_P2P: '标记为 Device 间拷贝的 HUGE_FIRST；普通 aclrtMalloc 使用普通页，WithCfg 走大页逻辑',
    HUGE_ONLY_P2P: '标记为 Device 间拷贝的 HUGE_ONLY；普通 aclrtMalloc 使用普通页，WithCfg 走大页逻辑',
    NORMAL_ONLY_P2P: '普通页，并标记为用于 Device 间拷贝',
    HUGE1G_ONLY: '只用 1 GiB 大页，大小向上取整到整 GiB；仅支持 1 GiB 页的产品可用（Atlas A2 910B、A3 910_93），否则返回 207000',
    HUGE1G_ONLY_P2P: '用于 Device 间拷贝的 1 GiB 大页；需要 1 GiB 页和 P2P 支持，否则返回 207000',
  },
};

function withRules(language: 'en' | 'zh'): Record<BasePolicyKey, string> {
  const lines = LINES[language];
  const line = { ...lines };
  for (const { key, rules } of BASE_POLICIES) {
    line[key] = language === 'en' ? `${lines[key]} (${rules.join(', ')}).` : `${lines[key]}（${rules.join('、')}）。`;
  }
  return line;
}

/** "… (DM-8, DM-4)." and "…（DM-8、DM-4）。", by policy key. */
export const POLICY_LINES = { en: withRules('en'), zh: withRules('zh') } as const;
