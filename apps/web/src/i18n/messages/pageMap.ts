import { defineMessages } from '../define.ts';

export const pageMap = defineMessages({}, {});
