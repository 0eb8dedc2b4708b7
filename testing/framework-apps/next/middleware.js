import { NextResponse } from 'next/server';

/** A nonce per request and the strict policy that names it; Next.js puts the nonce on its own scripts, and the page hands it to the widget. */
export function middleware(request) {
  const nonce = btoa(crypto.randomUUID());
  const host = process.env.CHECKOUT_HOST;
  const policy = `default-src 'self'; script-src 'self' 'nonce-${nonce}' ${host}; style-src 'self' 'nonce-${nonce}'; connect-src 'self' ${host}; img-src 'self' data:`;
  const headers = new Headers(request.headers);
  headers.set('x-nonce', nonce);
  headers.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  return response;
}

export const config = { matcher: '/' };
