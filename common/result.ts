/**
 * Errors cross layers as values, never as thrown strings: every fallible
 * operation returns a Result whose error carries a stable machine-readable code.
 */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const err = <E>(error: E): { ok: false; error: E } => ({ ok: false, error });

/** An error value: a code callers branch on, and a message people read. */
export interface Failure<Code extends string = string> {
  code: Code;
  message: string;
}
