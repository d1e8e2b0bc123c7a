// Fetches one autoconfig file over HTTPS (or, where discovery asks, plain HTTP) with undici: the CA can be
// given (the tests' own; the system's roots otherwise), names are resolved by discovery's DNS (dns.ts), the body
// is cut off past a bound and the whole request past a deadline. No cookies, no credentials, no address sent.
import { Agent, request } from 'undici';
import { rootsWith } from '../../extra-ca.ts';
import type { Dns } from './dns.ts';

/** Why a file could not be had: a sentence to show beside the URL. `missing` is no file there (a 404, no host). */
export class FetchFailure extends Error {
  readonly missing: boolean;
  constructor(message: string, missing = false) {
    super(message);
    this.missing = missing;
  }
}

export type Fetched = { text: string; url: string /** Every hop was HTTPS. */; https: boolean };

export type FetchOptions = {
  dns: Dns;
  /** A CA (PEM) trusted beside the system's roots (the tests' CA, a company's own). */
  ca?: string | undefined;
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
};

const maxRedirects = 3;

export function configFetcher(o: FetchOptions) {
  const agent = new Agent({
    // SECURITY: an extra CA is added to the system's roots, never put in their place (extra-ca.ts): a company CA
    // must not make the big providers' own autoconfig unverifiable.
    connect: { ...(o.ca ? { ca: rootsWith(o.ca) } : {}), lookup: o.dns.lookup, timeout: o.timeoutMs },
    headersTimeout: o.timeoutMs,
    bodyTimeout: o.timeoutMs,
    // One request per host name: nothing is kept open after the discovery.
    pipelining: 0,
  });

  async function fetchOnce(url: URL, signal: AbortSignal) {
    try {
      return await request(url, {
        dispatcher: agent,
        method: 'GET',
        headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.1' },
        signal,
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (code === 'ENOTFOUND') throw new FetchFailure(`${url.host} has no address in DNS`, true);
      if (code === 'ETIMEOUT') throw new FetchFailure(`DNS did not answer for ${url.hostname}`);
      if (code === 'ECONNREFUSED') throw new FetchFailure(`nothing answers at ${url.host}`, true);
      if (signal.aborted) throw new FetchFailure(`no answer within ${o.timeoutMs / 1000} s`);
      if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
        throw new FetchFailure(`its TLS certificate is not valid for ${url.hostname} (${code})`);
      }
      throw new FetchFailure(
        `it could not be fetched (${code || (e instanceof Error ? e.message : String(e))})`,
      );
    }
  }

  return {
    async fetch(start: string): Promise<Fetched> {
      const signal = o.signal
        ? AbortSignal.any([o.signal, AbortSignal.timeout(o.timeoutMs)])
        : AbortSignal.timeout(o.timeoutMs);
      let url = new URL(start);
      let https = url.protocol === 'https:';
      for (let hop = 0; ; hop++) {
        const res = await fetchOnce(url, signal);
        if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
          await res.body.dump();
          const next = new URL(String(res.headers.location), url);
          if (hop >= maxRedirects) throw new FetchFailure(`it redirects more than ${maxRedirects} times`);
          if (next.protocol !== 'https:' && next.protocol !== 'http:') {
            throw new FetchFailure(`it redirects to ${next.protocol} (not HTTP)`);
          }
          // SECURITY: a hop over plain HTTP could have been written by anyone on the way, so what it leads to is
          // marked as from plain HTTP, whatever the last hop was.
          https &&= next.protocol === 'https:';
          url = next;
          continue;
        }
        if (res.statusCode !== 200) {
          await res.body.dump();
          throw new FetchFailure(
            `the server answered ${res.statusCode}`,
            res.statusCode === 404 || res.statusCode === 410,
          );
        }
        const declared = Number(res.headers['content-length']);
        if (declared > o.maxBytes) {
          res.body.destroy();
          throw new FetchFailure(
            `it is ${declared} bytes, over the ${o.maxBytes / 1024} KB an autoconfig file may be`,
          );
        }
        // SECURITY: the bound holds whatever the header said (or did not say): reading stops past it.
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of res.body) {
            size += (chunk as Buffer).length;
            if (size > o.maxBytes) {
              res.body.destroy();
              throw new FetchFailure(`it is over the ${o.maxBytes / 1024} KB an autoconfig file may be`);
            }
            chunks.push(chunk as Buffer);
          }
        } catch (e) {
          if (e instanceof FetchFailure) throw e;
          throw new FetchFailure(
            signal.aborted ? `no answer within ${o.timeoutMs / 1000} s` : 'the answer broke off',
          );
        }
        return { text: Buffer.concat(chunks).toString('utf8'), url: url.href, https };
      }
    },
    close: () => agent.destroy(),
  };
}
