/**
 * Cursor paging, the same for every list of the API: `limit` 1 to 100 (10 by
 * default), `starting_after` the last id of the previous page, and a reply
 * `{object: 'list', data, has_more}`.
 */
import { z } from 'zod';

/** A query parameter that is a whole number, as digits only: "1e2", "0x10" or " 7" are refused, not read as numbers. */
export const QueryInteger = z
  .string()
  .regex(/^\d{1,15}$/, 'a whole number (digits only)')
  .transform(Number);

/** `limit`: how many `items` per page. */
export const pageLimit = (items: string) =>
  QueryInteger.pipe(z.number().min(1).max(100)).default(10).meta({ description: `${items} per page, 1 to 100; 10 when absent` });

/** `starting_after`: the id (`id` its schema) of the previous page's last `item`. */
export const startingAfter = (id: z.ZodString, item: string) => id.optional().meta({ description: `The id of the previous page's last ${item}: the page starts after it` });

/** One page of `item`s; `has_more` says whether a next one (starting after the last) has any. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });
