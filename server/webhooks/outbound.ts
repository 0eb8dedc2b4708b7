/**
 * One request from us to a merchant's server (a webhook delivery, an origin's verification file),
 * under the address policy (address-policy.ts): the connection's own DNS lookup is checked, so a
 * name that resolves elsewhere between the check and the connection is refused; no redirect is
 * followed and no connection pooled; the outcome is settled once, an error if nothing settled it
 * within `timeoutMs`. Failures are described by their kind, never by what the server sent.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { WebhookAddressPolicy } from '../config';
import { checkedLookup, type Resolve } from './address-policy';

export type OutboundError = { error: string };

export interface OutboundOptions {
  addressPolicy: WebhookAddressPolicy;
  timeoutMs: number;
  resolve: Resolve;
}

export interface OutboundRequest<T> {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** What the error says when nothing settled the request in time. */
  timeoutError: string;
  /** Reads the reply and settles the outcome (a later settle is ignored). */
  onResponse(response: IncomingMessage, settle: (outcome: T | OutboundError) => void): void;
}

export function requestOutbound<T>(url: URL, request: OutboundRequest<T>, options: OutboundOptions): Promise<T | OutboundError> {
  return new Promise((resolve) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const settle = (outcome: T | OutboundError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sent.destroy();
      resolve(outcome);
    };
    const sent = send(url, {
      method: request.method,
      headers: request.headers,
      agent: false,
      ...(options.addressPolicy === 'public' ? { lookup: checkedLookup(options.resolve) } : {}),
    });
    const timer = setTimeout(() => settle({ error: request.timeoutError }), options.timeoutMs);
    sent.on('response', (response: IncomingMessage) => request.onResponse(response, settle));
    sent.on('error', (error: NodeJS.ErrnoException) => settle({ error: describeError(error) }));
    sent.end(request.body);
  });
}

/** What went wrong: the kind of failure, never anything the receiver sent. */
export function describeError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `DNS: the host does not resolve (${error.code})`;
    case 'ADDRESS_NOT_ALLOWED':
      return `refused: ${error.message}`;
    case 'ECONNRESET':
      return 'connection reset';
    default:
      return error.code ? `network error (${error.code})` : 'network error';
  }
}
