import type { Request } from 'express';

/** The credential of `Authorization: Bearer <credential>`, if that is what the request carries. */
export function bearerCredential(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}
