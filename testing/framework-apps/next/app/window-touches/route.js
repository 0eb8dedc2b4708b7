export const dynamic = 'force-dynamic';

/** The server's reads of `window` since it started (instrumentation.js). */
export function GET() {
  return Response.json({ recording: Array.isArray(globalThis.__windowTouches), touches: globalThis.__windowTouches ?? [] });
}
