import type { InputDecl } from '../interp/inputs.ts';
import type { ScenarioHost } from './host.ts';

export interface LocalizedText {
  readonly en: string;
  readonly zh: string;
}

/** A built-in program for the playground: code to step through, with what it needs to run. */
export interface Scenario {
  readonly id: string;
  readonly title: LocalizedText;
  readonly description: LocalizedText;
  /** C source. Seed scenarios hold the CANN guide's sample verbatim, placeholders and Chinese comments included. */
  readonly code: string;
  /** Names the code uses without declaring them; the setup may bind those without a value. */
  readonly inputs: readonly InputDecl[];
  /** C statements shown above the code and run first through the same runtime; '' for none. */
  readonly setup: string;
  /** The host the outcome was designed on; the playground offers a reset to it when the session's host differs. */
  readonly host: ScenarioHost;
  /** The function to run when it is neither main nor the only one. */
  readonly entry?: string;
  /** 'seed': from the CANN runtime guide's memory chapter; 'pagelens': written for PageLens. */
  readonly origin: 'seed' | 'pagelens';
  /** RULES.md IDs the scenario shows. */
  readonly rules: readonly string[];
}

/** aclInit, device 0 and a stream bound to the input `stream`: the context the guide's fragments assume. */
export const STREAM_SETUP = 'aclInit(nullptr);\naclrtSetDevice(0);\naclrtCreateStream(&stream);';
export const DEVICE_SETUP = 'aclInit(nullptr);\naclrtSetDevice(0);';
