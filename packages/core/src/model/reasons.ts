import { formatBytes, formatInteger } from '../units/bytes.ts';
import type { Reason } from './events.ts';

/**
 * English templates for every reason code. `{{name}}` inserts a value; `{{name, int}}` with
 * thousands separators; `{{name, size}}` as "2 MiB". The web app registers the same formatters
 * with its i18n library and uses these templates for English (its Chinese ones mirror them).
 */
export const REASON_TEMPLATES_EN = {
  'size-zero': 'size 0 is not allowed',
  'null-out': '{{param}} is NULL: there is nowhere to write the result',
  pad: '{{size, int}} B + {{pad}} B padding, rounded up to 32 B = {{padded, int}} B',
  align32: '{{size, int}} B rounded up to 32 B = {{padded, int}} B ({{fn}} adds no padding)',
  'giant-no-pad': 'HUGE1G policies add no padding',
  'huge-first-small': '{{padded, int}} B ≤ 1 MiB → HUGE_FIRST takes normal pages',
  'huge-first-large': '{{padded, int}} B > 1 MiB → HUGE_FIRST takes 2 MiB huge pages',
  'huge-first-fallback': 'only {{freeHuge, int}} free 2 MiB pages for {{needed, int}} needed → HUGE_FIRST falls back to normal pages',
  'huge-only': 'HUGE_ONLY takes 2 MiB huge pages only',
  'normal-only': 'NORMAL_ONLY takes normal pages only',
  giant: 'HUGE1G_ONLY takes 1 GiB pages only',
  'giant-unsupported': '{{profile}} has no 1 GiB pages',
  'p2p-generic': 'through {{fn}}, {{policyName}} takes the generic path: normal pages (modeled; use aclrtMallocWithCfg)',
  'p2p-unsupported': '{{profile}} has no device-to-device (P2P) memory',
  'p2p-marked': 'a P2P policy marks the memory for device-to-device copies',
  'bandwidth-hint': 'bandwidth/access bits {{bits}} accepted; the system picks the physical memory type',
  'flags-need-withcfg': 'policy {{policy}} carries bits that only aclrtMallocWithCfg accepts (modeled as invalid)',
  'cached-policy': 'aclrtMallocCached accepts only HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY or HUGE1G_ONLY',
  'unknown-policy': 'policy {{policy}} is not a known value: treated as the default, huge pages from 2 MiB and normal pages below',
  occupies: '{{pages, int}} × {{pageSize, size}} pages = {{occupied, size}} occupied; {{waste, int}} B unused',
  exhausted: 'not enough free {{pageClass}} pages: {{needed, int}} needed, {{available, int}} free',
  fragmented: '{{freeBytes, size}} is free in all, but not as whole {{pageClass}} pages',
  'copy-pinned': 'pinned host memory: DMA straight from the buffer at {{rate}} GB/s',
  'copy-pageable': 'pageable host memory: staged through a bounce buffer in {{stages, int}} chunks at {{rate}} GB/s',
  'copy-blocks': 'the host side is pageable, so aclrtMemcpyAsync returns only when the copy is done',
  'copy-device': 'device to device on one device at {{rate}} GB/s',
  'copy-peer': 'device {{src}} to device {{dst}} over the device link at {{rate}} GB/s',
  'copy-host': 'host to host memcpy at {{rate}} GB/s',
  'copy-waits': 'waited {{waitNs, int}} ns for earlier work on the {{resource}}',
  'value-wait-unmet':
    'no write queued so far meets the condition at {{addr}}: on hardware the stream waits until one does; the simulator does not hold it back',
} as const;

export type ReasonCode = keyof typeof REASON_TEMPLATES_EN;

export function reason(code: ReasonCode, rules: readonly string[], values?: Readonly<Record<string, number | string>>): Reason {
  return values === undefined ? { code, rules } : { code, rules, values };
}

function formatValue(value: number | string | undefined, format: string | undefined): string {
  if (value === undefined) return '?';
  if (typeof value === 'string') return value;
  switch (format) {
    case 'int':
      return formatInteger(value);
    case 'size':
      return formatBytes(value);
    default:
      return String(value);
  }
}

/** Fills a template: "{{padded, int}} B" with {padded: 1048608} → "1,048,608 B". */
export function fillTemplate(template: string, values: Readonly<Record<string, number | string>> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (_all, name: string, format: string | undefined) =>
    formatValue(values[name], format),
  );
}

const TEMPLATES: ReadonlyMap<string, string> = new Map(Object.entries(REASON_TEMPLATES_EN));

export function describeReason(item: Reason): string {
  const template = TEMPLATES.get(item.code);
  return template === undefined ? item.code : fillTemplate(template, item.values);
}

/** Rule IDs once each, in natural order: DM-3 before DM-11. */
export function sortRules(rules: readonly string[]): string[] {
  return [...new Set(rules)].sort((a, b) => {
    const [fa = '', na = '0'] = a.split('-');
    const [fb = '', nb = '0'] = b.split('-');
    return fa === fb ? Number(na) - Number(nb) : fa.localeCompare(fb);
  });
}

/** One sentence for a whole decision, with its rule IDs: "…; … → HUGE_FIRST takes 2 MiB huge pages (DM-3, DM-4)". */
export function explainReasons(reasons: readonly Reason[]): string {
  if (reasons.length === 0) return '';
  const rules = sortRules(reasons.flatMap((r) => r.rules));
  return `${reasons.map(describeReason).join('; ')} (${rules.join(', ')})`;
}
