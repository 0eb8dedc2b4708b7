/** The building blocks of the OpenAPI document's paths, shared by its parts (document.ts, webhooks.ts). */
import { z } from 'zod';
import { ApiErrorBody } from '../contracts';

export const json = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } } });
export const reply = <T extends z.ZodType>(description: string, schema: T) => ({ description, ...json(schema) });
export const apiError = (description: string) => reply(description, ApiErrorBody);
/** Every route of ours may meet the store down (docs/operations.md, "Database outages and failover"). */
const STORE_DOWN = 'store_unavailable: the store is briefly unavailable (a restart, a failover); retry after the Retry-After header';
export const storeDown = (otherwise?: string) => apiError(otherwise ? `${otherwise}; or ${STORE_DOWN}` : STORE_DOWN);

export const idempotencyKey = z.string().min(1).max(255).meta({ description: 'Makes a retry of this request return the first reply instead of acting twice' });
