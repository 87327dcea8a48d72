import { TEXT_TEMPLATES_EN, type TextCode } from '@pagelens/core';
import { AGENT_TEXTS_ZH } from './agent.ts';
import { SIM_TEXTS_ZH } from './sim.ts';
import { SIM_COPY_TEXTS_ZH } from './sim-copy.ts';
import { SIM_MEMORY_TEXTS_ZH } from './sim-memory.ts';
import { SIM_VMM_TEXTS_ZH } from './sim-vmm.ts';

/**
 * The texts of core's message table (texts/table.ts) in Chinese, one per code, part by part (the
 * Record types make a missing or unknown code a type error). English is core's own table.
 */
export const TEXT_TEMPLATES_ZH: Readonly<Record<TextCode, string>> = {
  ...AGENT_TEXTS_ZH,
  ...SIM_TEXTS_ZH,
  ...SIM_MEMORY_TEXTS_ZH,
  ...SIM_COPY_TEXTS_ZH,
  ...SIM_VMM_TEXTS_ZH,
};

export const TEXT_TEMPLATES_EN_COPY: Readonly<Record<TextCode, string>> = TEXT_TEMPLATES_EN;
