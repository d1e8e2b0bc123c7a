// DNS for discovery: node's c-ares Resolver, never the system's getaddrinfo, so its servers can be set
// (`resolver.setServers(['127.0.0.1:PORT'])`: the tests' own DNS server) and nothing else in the process is touched.
// Every name discovery connects to (an autoconfig host, an SRV target, a guessed host) is looked up here too, so
// one resolver answers for the whole discovery. A name that is not there is an empty answer; a server that does
// not answer is `DnsTimeout`, which discovery turns into a sentence.

import type { LookupAddress, LookupOneOptions } from 'node:dns';
import { Resolver } from 'node:dns/promises';

export class DnsTimeout extends Error {}

// c-ares' codes for "no such name" and "no records of that type" (and a refused or failed server, which says
// nothing more about the name either).
const empty = new Set([
  'ENOTFOUND',
  'ENODATA',
  'ENONAME',
  'ESERVFAIL',
  'EREFUSED',
  'EBADRESP',
  'ECONNREFUSED',
]);

/** The resolver discovery uses by default: the system's DNS servers, asked by c-ares. */
export function defaultResolver(timeoutMs = 3000): Resolver {
  return new Resolver({ timeout: timeoutMs, tries: 2 });
}

export type Dns = {
  srv(name: string): Promise<{ name: string; port: number; priority: number; weight: number }[]>;
  mx(name: string): Promise<{ exchange: string; priority: number }[]>;
  /** The host's addresses, IPv4 first; empty when it has none. */
  addresses(host: string): Promise<LookupAddress[]>;
  /** `net.connect`'s `lookup` over the same resolver, so sockets reach the addresses this DNS gave. */
  lookup: (
    host: string,
    options: LookupOneOptions | { all: true },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => void;
};

export function dnsOver(resolver: Resolver): Dns {
  // A DNS server that let one question time out is not asked the next ones: discovery then ends in about one
  // timeout (the questions asked at once run side by side), not in one timeout for each name it would look up.
  let silent = false;
  // `aside`: a question whose timeout says nothing of the server (an AAAA some servers drop).
  async function ask<T>(query: () => Promise<T[]>, aside = false): Promise<T[]> {
    if (silent) throw new DnsTimeout('ETIMEOUT');
    try {
      return await query();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      if (code === 'ETIMEOUT') {
        silent ||= !aside;
        throw new DnsTimeout(code);
      }
      if (empty.has(code)) return [];
      throw e;
    }
  }
  const addresses = async (host: string): Promise<LookupAddress[]> => {
    const [v4, v6] = await Promise.all([
      ask(() => resolver.resolve4(host)),
      ask(() => resolver.resolve6(host), true).catch((e: unknown) => {
        // An IPv4 answer is enough; a server that only times out on AAAA does not spoil it.
        if (e instanceof DnsTimeout) return [] as string[];
        throw e;
      }),
    ]);
    return [
      ...v4.map((address) => ({ address, family: 4 })),
      ...v6.map((address) => ({ address, family: 6 })),
    ];
  };
  return {
    srv: (name) => ask(() => resolver.resolveSrv(name)),
    mx: (name) => ask(() => resolver.resolveMx(name)),
    addresses,
    lookup(host, options, callback) {
      addresses(host).then(
        (found) => {
          const first = found[0];
          if (!first) {
            const e: NodeJS.ErrnoException = new Error(`${host} has no address in DNS.`);
            e.code = 'ENOTFOUND';
            callback(e, []);
          } else if ('all' in options && options.all) callback(null, found);
          else callback(null, first.address, first.family);
        },
        (e: unknown) => {
          const err: NodeJS.ErrnoException = e instanceof Error ? e : new Error(String(e));
          if (e instanceof DnsTimeout) err.code = 'ETIMEOUT';
          callback(err, []);
        },
      );
    },
  };
}
