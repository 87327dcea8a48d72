import { defineMessages } from '../define.ts';

export const timeTravel = defineMessages({}, {});
