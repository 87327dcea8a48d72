import { defineMessages } from '../define.ts';

export const overview = defineMessages({}, {});
