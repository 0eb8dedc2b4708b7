/**
 * Compiled by the project's `npx tsc --noEmit`, never run: the kit's TestClock, written out so that the
 * package imports nothing of this repository, is the API's (contracts/test-clocks.ts), both ways.
 */
import type { TestClock as ApiTestClock } from '../../../contracts/test-clocks';
import type { AdvanceClockOptions, TestClock } from '../src';

export const fromApi = (clock: ApiTestClock): TestClock => clock;
export const toApi = (clock: TestClock): ApiTestClock => clock;

const where = { checkoutOrigin: 'https://checkout.example', secretKey: 'sk_test_x' };
export const bySeconds: AdvanceClockOptions = { ...where, seconds: 3600, session: 'cs_x' };
export const toTime: AdvanceClockOptions = { ...where, to: Date.UTC(2030, 0, 1) };
// @ts-expect-error a move is by seconds or to a time, not both
export const both: AdvanceClockOptions = { ...where, seconds: 3600, to: Date.UTC(2030, 0, 1) };
