import { defineMessages } from '../define.ts';

export const addressSpace = defineMessages({}, {});
