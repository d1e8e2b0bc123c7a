// The one-click unsubscribe of RFC 8058 §3.2: one POST of `List-Unsubscribe=One-Click` to the https URI the
// message named, made here in the main process with undici, never by the page.
//
// SECURITY: the URI comes from untrusted mail, and the person confirmed its host. So the request carries nothing
// of theirs: no cookie, no referrer, no credentials, no Origin, only the fixed body (RFC 8058 §3.2 forbids
// cookies and HTTP authentication here). It goes over TLS checked against the system's roots (plus a CA the app
// was given, as for sign-in, never with checks turned off); a redirect is followed only to https on the same host
// (at most 3), so the host confirmed is the host that hears it; and the whole exchange has a deadline. Nothing
// of the answer is read but its status.
import { Agent, request } from 'undici';
import { rootsWith } from '../../extra-ca.ts';
import { UnsubscribeError } from './unsubscribe-error.ts';

export type OneClickNet = {
  /** PEM roots to trust beside the system's (AppOptions.extraCa: the tests' CA, a company's own). */
  ca?: string | undefined;
  timeoutMs?: number;
};

const maxRedirects = 3;
const defaultTimeoutMs = 15_000;
// RFC 8058 §3.1: exactly this, form-encoded.
const body = 'List-Unsubscribe=One-Click';

function unreachable(host: string, e: unknown, signal: AbortSignal, timeoutMs: number): UnsubscribeError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  if (signal.aborted) {
    return new UnsubscribeError('unreachable', `${host} did not answer within ${timeoutMs / 1000} seconds.`);
  }
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return new UnsubscribeError(
      'unreachable',
      `${host} has no valid certificate, so nothing was sent to it.`,
    );
  }
  if (code === 'ENOTFOUND') return new UnsubscribeError('unreachable', `${host} has no address in DNS.`);
  return new UnsubscribeError('unreachable', `${host} could not be reached${code ? ` (${code})` : ''}.`);
}

/** POSTs the one-click unsubscribe to `url`; resolves on a 2xx, else throws an UnsubscribeError naming the host. */
export async function postOneClick(url: string, net: OneClickNet = {}): Promise<void> {
  const timeoutMs = net.timeoutMs ?? defaultTimeoutMs;
  let target = new URL(url);
  const host = target.host;
  if (target.protocol !== 'https:') {
    throw new UnsubscribeError('redirect', `${host} is not an https address, so no request was sent to it.`);
  }
  const ca = rootsWith(net.ca);
  const agent = new Agent({
    connect: { ...(ca ? { ca } : {}), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    pipelining: 0,
  });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      let res: Awaited<ReturnType<typeof request>>;
      try {
        // undici's request sends only the headers given (and host, content-length): no cookie jar, no referrer.
        res = await request(target, {
          dispatcher: agent,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Skimmer' },
          body,
          signal,
        });
      } catch (e) {
        throw unreachable(host, e, signal, timeoutMs);
      }
      await res.body.dump().catch(() => {});
      const location = res.headers.location;
      if (res.statusCode >= 300 && res.statusCode < 400 && typeof location === 'string') {
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw new UnsubscribeError(
            'redirect',
            `${host} redirected the request to an address that is not one.`,
          );
        }
        // SECURITY: the person confirmed this host; the request goes nowhere else, and never in the clear.
        if (next.protocol !== 'https:') {
          throw new UnsubscribeError(
            'redirect',
            `${host} redirected the request to plain HTTP, so it was not sent on.`,
          );
        }
        if (next.host !== host) {
          throw new UnsubscribeError(
            'redirect',
            `${host} redirected the request to another host (${next.host}), so it was not sent on.`,
          );
        }
        if (hop >= maxRedirects) {
          throw new UnsubscribeError(
            'redirect',
            `${host} redirected the request more than ${maxRedirects} times.`,
          );
        }
        // The POST is the unsubscribe: it goes on as a POST (a GET would only fetch a page).
        target = next;
        continue;
      }
      if (res.statusCode >= 200 && res.statusCode < 300) return;
      throw new UnsubscribeError(
        'refused',
        `${host} answered ${res.statusCode} to the unsubscribe request: you may still be on the list.`,
      );
    }
  } finally {
    await agent.destroy().catch(() => {});
  }
}
