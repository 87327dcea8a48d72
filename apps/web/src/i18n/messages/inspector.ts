import { defineMessages } from '../define.ts';

export const inspector = defineMessages({}, {});
