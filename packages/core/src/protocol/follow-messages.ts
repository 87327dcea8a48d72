import { z } from 'zod';
import { SCENARIOS } from '../scenarios/index.ts';

/**
 * The follow channel (issue 17 item 1): the driver publishes what its playground shows (the code,
 * where the run is, the gutter marks) and where it is in a guided lesson; the agent keeps the
 * latest, relays it to the viewers and gives it to each viewer that joins. Every list and text is
 * capped, so one state is at most a few hundred KiB however it is filled.
 */
export const FOLLOW_LIMITS = {
  /** UTF-16 code units of the code text (as the playground's own documents allow). */
  code: 100_000,
  setup: 10_000,
  name: 120,
  inputs: 64,
  inputName: 64,
  ctype: 64,
  inputValue: 200,
  entry: 64,
  /** main's command line after the program name, as the playground's arguments field holds it. */
  args: 1000,
  /** Gutter marks per editor: one per line that has one. */
  marks: 5000,
  /** What a mark's tooltip lists (the most serious first), and how long each line of it may be. */
  details: 4,
  detailText: 240,
  errorMessage: 2000,
  lessonId: 64,
  lessonSteps: 1000,
  /** The driver's label as the agent relays it (its hello's `client`). */
  driver: 64,
} as const;

/** What `max` allows, said in the words of the refusal. */
const chars = (max: number) => ({ error: `at most ${max.toLocaleString('en-US')} characters` });
const text = (max: number) => z.string().max(max, chars(max));
const line = z.number().int().min(1).max(1_000_000);

const SCENARIO_IDS = SCENARIOS.map((scenario) => scenario.id);
const [FIRST_ID, ...OTHER_IDS] = SCENARIO_IDS;
if (FIRST_ID === undefined) throw new Error('core has no built-in scenarios');

/** A built-in scenario, unedited, by its id (every client has its code), or the code itself. */
export const FollowDoc = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('scenario'), id: z.enum([FIRST_ID, ...OTHER_IDS]) }),
  z.strictObject({
    kind: z.literal('code'),
    name: text(FOLLOW_LIMITS.name),
    code: text(FOLLOW_LIMITS.code),
    setup: text(FOLLOW_LIMITS.setup),
    inputs: z
      .array(
        z.strictObject({
          name: text(FOLLOW_LIMITS.inputName),
          ctype: text(FOLLOW_LIMITS.ctype),
          value: text(FOLLOW_LIMITS.inputValue).exactOptional(),
        }),
      )
      .max(FOLLOW_LIMITS.inputs),
    entry: text(FOLLOW_LIMITS.entry).exactOptional(),
    args: text(FOLLOW_LIMITS.args).exactOptional(),
  }),
]);
export type FollowDoc = z.infer<typeof FollowDoc>;

const MarkKind = z.enum(['error', 'acl-error', 'warning', 'note', 'ok']);

/** One line's gutter mark, as the playground draws it (gutter-model.ts in the web). */
export const FollowMark = z.strictObject({
  line,
  kind: MarkKind,
  executed: z.boolean(),
  hits: z.number().int().nonnegative().safe(),
  details: z
    .array(z.strictObject({ kind: MarkKind, text: text(FOLLOW_LIMITS.detailText), count: z.number().int().positive().safe() }))
    .max(FOLLOW_LIMITS.details),
});
export type FollowMark = z.infer<typeof FollowMark>;

const marks = z.array(FollowMark).max(FOLLOW_LIMITS.marks);

/**
 * Where the driver's run is: its state, the line it is paused before, the error that stopped it,
 * and the marks of the code and of the setup. Before anything ran (`idle`) the marks are the
 * compiler's, which a viewer computes from the code itself; the driver sends none.
 */
export const FollowRun = z.strictObject({
  status: z.enum(['idle', 'ready', 'running', 'paused', 'finished', 'error']),
  line: line.exactOptional(),
  error: z
    .strictObject({ line: z.number().int().nonnegative(), message: text(FOLLOW_LIMITS.errorMessage), inSetup: z.boolean() })
    .exactOptional(),
  marks,
  setupMarks: marks,
});
export type FollowRun = z.infer<typeof FollowRun>;

/** A guided lesson and the step (0-based) the driver is on. */
export const FollowLesson = z.strictObject({
  lessonId: z.string().min(1).max(FOLLOW_LIMITS.lessonId, chars(FOLLOW_LIMITS.lessonId)),
  step: z
    .number()
    .int()
    .nonnegative()
    .max(FOLLOW_LIMITS.lessonSteps - 1),
});
export type FollowLesson = z.infer<typeof FollowLesson>;

export const FollowState = z.strictObject({ doc: FollowDoc, run: FollowRun, lesson: FollowLesson.nullable() });
export type FollowState = z.infer<typeof FollowState>;

/** followState (driver only): the driver's playground changed. Sent coalesced, never per keystroke. */
export const PublishFollowState = z.strictObject({ type: z.literal('followState'), state: FollowState });
export type PublishFollowState = z.infer<typeof PublishFollowState>;

/**
 * The driver's latest state, relayed to viewers: when it changes and once on joining. `state` is
 * null when the driver session ended (nothing to follow). `driver` is the driver's own label (its
 * hello's `client`), when it gave one.
 */
export const DriverFollowState = z.strictObject({
  type: z.literal('followState'),
  state: FollowState.nullable(),
  driver: text(FOLLOW_LIMITS.driver).exactOptional(),
});
export type DriverFollowState = z.infer<typeof DriverFollowState>;
