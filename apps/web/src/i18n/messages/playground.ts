import { defineMessages } from '../define.ts';

export const playground = defineMessages({}, {});
