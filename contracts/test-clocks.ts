/**
 * Test clocks (docs/test-clocks.md): in sandbox mode only, a merchant's QA moves
 * one application's clock (or one session's) forward, to see in seconds what
 * days would do: expiry, a hold's lapse, webhook retries, personal data's erasure.
 */
import { z } from 'zod';
import { SessionId } from './sessions';

/** The most one call moves a clock: more than a year, past the default retention (180 days) and a hold's 7 days; call again for more. */
export const MAX_CLOCK_ADVANCE_SECONDS = 400 * 24 * 60 * 60;

const AdvanceSeconds = z.int().min(1).max(MAX_CLOCK_ADVANCE_SECONDS);

/** POST /api/test_helpers/advance_clock (secret key, sandbox mode only): by `seconds`, or `to` a time on the application's clock. */
export const AdvanceClockBody = z
  .strictObject({
    seconds: AdvanceSeconds.optional().meta({ description: `How far to move the clock forward: 1 to ${MAX_CLOCK_ADVANCE_SECONDS} (400 days); give this or \`to\`` }),
    to: z.int().positive().optional().meta({
      description: `Where to move the clock (ms since the epoch, as \`expires_at\`): at least a second and at most ${MAX_CLOCK_ADVANCE_SECONDS} s after the clock's \`now\` (GET /api/test_helpers/clock); give this or \`seconds\``,
    }),
    session: SessionId.optional().meta({ description: "Move only this session (cs_...): its rows and its charges at the service; the application's clock stays where it is" }),
  })
  .refine((body) => (body.seconds === undefined) !== (body.to === undefined), { message: 'give either seconds or to, not both', path: ['seconds'] })
  .meta({ id: 'AdvanceClockBody' });
export type AdvanceClockBody = z.infer<typeof AdvanceClockBody>;

/** An application's test clock: where its time stands, and how far it was moved in all. */
export const TestClock = z
  .object({
    object: z.literal('test_clock'),
    now: z.number().int().meta({ description: "The application's clock (ms since the epoch): the server's time plus `offset_seconds`" }),
    offset_seconds: z.number().int().min(0).meta({ description: "How far the application's clock was moved forward, in all (a session moved alone does not count)" }),
    session: SessionId.nullable().meta({ description: 'The session this call moved alone; null when the whole application moved (and on GET)' }),
  })
  .meta({ id: 'TestClock' });
export type TestClock = z.infer<typeof TestClock>;

/** The most charges one call to the sandbox's helper backdates: the backend sends an application's in batches. */
export const MAX_BACKDATED_CHARGES = 500;

/**
 * The sandbox service's test helper (POST {base_url}/test_helpers/charges/backdate, sandbox only): the named
 * charges of the merchant account placed `seconds` earlier, so that its own rules (a hold lapses 7 days after it
 * was placed) agree with a backend whose test clock moved.
 */
export const BackdateChargesRequest = z
  .strictObject({
    seconds: AdvanceSeconds,
    charges: z.array(z.string().min(1).max(100)).min(1).max(MAX_BACKDATED_CHARGES),
  })
  .meta({ id: 'BackdateChargesRequest' });
export type BackdateChargesRequest = z.infer<typeof BackdateChargesRequest>;

export const BackdatedCharges = z.object({ object: z.literal('backdated_charges'), backdated: z.number().int().min(0) });
export type BackdatedCharges = z.infer<typeof BackdatedCharges>;
