import { defineMessages } from '../define.ts';

export const log = defineMessages({}, {});
