import { defineMessages } from '../define.ts';

export const actions = defineMessages({}, {});
