import { defineMessages } from '../define.ts';

export const hostCopies = defineMessages({}, {});
