import { defineMessages } from '../define.ts';

export const tlb = defineMessages({}, {});
