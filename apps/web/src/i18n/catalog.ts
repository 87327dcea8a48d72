import { actions } from './messages/actions.ts';
import { addressSpace } from './messages/addressSpace.ts';
import { common } from './messages/common.ts';
import { fileImport } from './messages/fileImport.ts';
import { follow } from './messages/follow.ts';
import { hostCopies } from './messages/hostCopies.ts';
import { inspector } from './messages/inspector.ts';
import { lessons } from './messages/lessons.ts';
import { log } from './messages/log.ts';
import { overview } from './messages/overview.ts';
import { pageMap } from './messages/pageMap.ts';
import { playground } from './messages/playground.ts';
import { processes } from './messages/processes.ts';
import { scenarioHost } from './messages/scenarioHost.ts';
import { shell } from './messages/shell.ts';
import { timeTravel } from './messages/timeTravel.ts';
import { tlb } from './messages/tlb.ts';
import { OBSERVED_REASONS, REASON_TEMPLATES_EN_COPY, REASON_TEMPLATES_ZH } from './reasons.ts';
import { TEXT_TEMPLATES_EN_COPY, TEXT_TEMPLATES_ZH } from './texts/index.ts';

/**
 * Every feature's messages, each under its own namespace key: `t('pageMap.legend.free')`.
 * Features own their message files; this list is the only place that names them all.
 */
const FEATURES = {
  actions,
  addressSpace,
  common,
  fileImport,
  follow,
  hostCopies,
  inspector,
  lessons,
  log,
  overview,
  pageMap,
  playground,
  processes,
  scenarioHost,
  shell,
  timeTravel,
  tlb,
};

/**
 * Reason codes live under "reasons": `t('reasons.huge-first-large', reason.values)`; the agent's
 * coded texts (core's texts/table.ts) under "texts": `t('texts.free-null')`.
 */
function pick(language: 'en' | 'zh'): Record<string, object> {
  const features: Record<string, object> = Object.fromEntries(
    Object.entries(FEATURES).map(([name, messages]) => [name, messages[language]]),
  );
  const templates = language === 'en' ? REASON_TEMPLATES_EN_COPY : REASON_TEMPLATES_ZH;
  const texts = language === 'en' ? TEXT_TEMPLATES_EN_COPY : TEXT_TEMPLATES_ZH;
  return { ...features, reasons: { ...templates, ...OBSERVED_REASONS[language] }, texts };
}

export const RESOURCES = {
  en: { translation: pick('en') },
  zh: { translation: pick('zh') },
};
