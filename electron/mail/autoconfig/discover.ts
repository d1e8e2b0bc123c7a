// Mail settings found from an address alone (issue 28 §2): what a person types before anything logs in. In order:
// the built-in table of well-known providers; the provider's autoconfig file over HTTPS (Thunderbird's format,
// autoconfig.DOMAIN, then DOMAIN/.well-known); RFC 6186 SRV records; the domain's MX (mail at Google or Microsoft
// means that provider, so a Workspace or Microsoft 365 address on its own domain gets the sign-in); the
// autoconfig file over plain HTTP; and last the usual host names, probed. Each setting says where it came from
// and whether it can be trusted as is; the caller shows them, editable, and nothing here stores anything.
//
// SECURITY, the rules this file keeps:
// - Nothing here logs in: no password or token is in reach (probe.ts says hello and leaves).
// - A server without TLS is taken only on this computer (shared/mail-account.ts's checkServer, the rule every
//   saved account passes): an autoconfig file or an SRV record that points a password at a plain-text port
//   elsewhere is refused with a sentence, never taken as is.
// - What came over plain HTTP, from a guess, or from SRV records naming a host outside the domain (RFC 6186 §6)
//   is marked unverified, with a warning saying so.
import type { Resolver } from 'node:dns/promises';
import { checkServer, type ServerSettings } from '../../../shared/mail-account.ts';
import { parseMailbox } from '../../../shared/mail-address.ts';
import { type ClientConfig, ConfigFileError, readClientConfig } from './client-config.ts';
import { DiscoveryError } from './discovery-error.ts';
import { DnsTimeout, defaultResolver, dnsOver } from './dns.ts';
import { configFetcher, FetchFailure } from './fetch-config.ts';
import { type ProbeOptions, probe } from './probe.ts';
import { builtInProvider, mxProvider, type OAuthPreset, type Provider, presetOf } from './providers.ts';

type DiscoveredSettings = {
  imap: ServerSettings;
  /** Null when no source named one: the person enters it, or the account only reads. */
  smtp: ServerSettings | null;
  /** The login name: the address unless an autoconfig file names another (%EMAILLOCALPART%). */
  user: string;
  auth: 'password' | 'oauth';
  /** Which sign-in, when it is one Skimmer has a preset for. */
  oauthPreset?: OAuthPreset;
  /** An autoconfig file's OAuth2 issuer for another provider, for the sign-in to discover (RFC 8414). */
  oauthIssuer?: string;
};

type SettingSource = {
  setting: 'imap' | 'smtp' | 'auth';
  /** `built-in`, `autoconfig (https)`, `autoconfig (http)`, `SRV`, `MX: Google`, `guess: probed imap.example.com`. */
  from: string;
  /** Where exactly: the file's URL, the record's name, the MX host, the host and port probed. */
  detail: string;
  /** False for a guess, for plain HTTP, for SRV outside the domain: show it, never use it silently. */
  verified: boolean;
};

export type Discovery = { settings: DiscoveredSettings; sources: SettingSource[]; warnings: string[] };

type Ports = {
  https: number;
  http: number;
  imaps: number;
  imap: number;
  submissions: number;
  submission: number;
};
const standardPorts: Ports = {
  https: 443,
  http: 80,
  imaps: 993,
  imap: 143,
  submissions: 465,
  submission: 587,
};

export type DiscoverDeps = {
  /** The DNS discovery asks (tests: one pointed at their own server); the system's servers by default. */
  resolver?: Resolver;
  /** PEM roots to trust instead of the system's, for HTTPS and for probes (tests: their own CA). */
  ca?: string;
  /** Where the HTTP(S) requests and the probes of the usual host names go; the standard ports by default. */
  ports?: Partial<Ports>;
  /** For each fetch of an autoconfig file. */
  timeoutMs?: number;
  /** For each probe of a mail server: short, since a guessed host often drops what it does not serve. */
  probeTimeoutMs?: number;
  /** The largest autoconfig file read. */
  maxConfigBytes?: number;
  signal?: AbortSignal;
};

type Found = {
  server: ServerSettings;
  from: string;
  detail: string;
  verified: boolean;
  user?: string;
  auth?: Pick<DiscoveredSettings, 'auth' | 'oauthPreset' | 'oauthIssuer'>;
};

const within = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);
const hostPort = (s: ServerSettings) => `${s.host}:${s.port}`;
const tlsOrder = { tls: 0, starttls: 1, none: 2 } as const;

export async function discover(input: string, deps: DiscoverDeps = {}): Promise<Discovery> {
  const address = parseMailbox(input);
  if (!address) {
    throw new DiscoveryError(
      'invalid_address',
      `"${input.trim().slice(0, 100)}" is not a mail address: type it as name@example.com.`,
    );
  }
  const domain = (address.split('@')[1] ?? '').toLowerCase();
  const warnings: string[] = [];
  const sources: SettingSource[] = [];
  const taken: { imap?: Found; smtp?: Found } = {};
  const take = (kind: 'imap' | 'smtp', pick: Found | undefined) => {
    if (pick && !taken[kind]) taken[kind] = pick;
  };
  const done = () => Boolean(taken.imap && taken.smtp);

  const builtIn = builtInProvider(domain);
  if (builtIn) {
    providerPicks(builtIn, 'built-in', `Skimmer's table of providers: ${builtIn.label}`, address, take);
    return result(address, taken, sources, warnings);
  }

  const ports = { ...standardPorts, ...deps.ports };
  const timeoutMs = deps.timeoutMs ?? 5000;
  const dns = dnsOver(deps.resolver ?? defaultResolver());
  const timedOut = new Set<string>();
  const onDns = <T>(name: string, query: Promise<T[]>): Promise<T[]> =>
    query.catch((e: unknown) => {
      if (!(e instanceof DnsTimeout)) throw e;
      timedOut.add(name);
      return [];
    });
  const probeOptions: ProbeOptions = {
    dns,
    ca: deps.ca,
    timeoutMs: deps.probeTimeoutMs ?? 3000,
    signal: deps.signal,
  };
  const fetcher = configFetcher({
    dns,
    ca: deps.ca,
    maxBytes: deps.maxConfigBytes ?? 100 * 1024,
    timeoutMs,
    signal: deps.signal,
  });

  // The DNS questions go out at once, beside the HTTPS requests; their answers are taken in order.
  const srvNames = ['_imaps', '_imap', '_submissions', '_submission'].map((s) => `${s}._tcp.${domain}`);
  const srv = srvNames.map((name) => onDns(name, dns.srv(name)));
  const mx = onDns(domain, dns.mx(domain));
  for (const p of [...srv, mx]) p.catch(() => undefined);

  try {
    const url = (scheme: 'https' | 'http', host: string, path: string) => {
      const port = ports[scheme];
      const standard = scheme === 'https' ? 443 : 80;
      return `${scheme}://${host}${port === standard ? '' : `:${port}`}${path}`;
    };
    const configUrls = (scheme: 'https' | 'http') => [
      url(scheme, `autoconfig.${domain}`, '/mail/config-v1.1.xml'),
      url(scheme, domain, '/.well-known/autoconfig/mail/config-v1.1.xml'),
    ];

    // 1. The provider's own file over HTTPS.
    for (const u of configUrls('https')) {
      if (taken.imap) break;
      const config = await readConfig(u);
      if (config) configPicks(config.config, config.url, config.https);
    }

    // 2. RFC 6186 SRV records, each checked to speak TLS where it points.
    if (!done()) await srvPicks();

    // 3. The domain's MX: mail that goes to Google or Microsoft is that provider.
    if (!done()) {
      const records = (await mx).sort((a, b) => a.priority - b.priority);
      const best = records.filter((r) => r.priority === records[0]?.priority);
      for (const r of best) {
        const provider = mxProvider(r.exchange);
        if (!provider) continue;
        // SECURITY: the provider's sign-in gives a token for its own servers; an SMTP server another source named
        // (an SRV record) would be handed that token, so the provider's SMTP server replaces it.
        if (taken.smtp && provider.auth === 'oauth') {
          warnings.push(
            `The SMTP server ${hostPort(taken.smtp.server)} (from ${taken.smtp.from}) was not used: mail at ${domain} goes to ${provider.label}, whose sign-in is for its own servers.`,
          );
          delete taken.smtp;
        }
        providerPicks(
          provider,
          `MX: ${provider.label}`,
          `MX ${r.exchange.replace(/\.$/, '')}`,
          address,
          take,
        );
        break;
      }
    }

    // 4. The autoconfig file over plain HTTP. SECURITY: anyone on the way could have written it, so it comes after
    // every source that is authenticated or checked, and what it names is unverified.
    for (const u of configUrls('http')) {
      if (done() || taken.imap) break;
      const config = await readConfig(u);
      if (config) configPicks(config.config, config.url, config.https);
    }

    // 5. The usual host names, probed without a password.
    if (!done()) {
      const [imap, smtp] = await Promise.all([
        taken.imap ? undefined : guess('imap', [`imap.${domain}`, `mail.${domain}`]),
        taken.smtp ? undefined : guess('smtp', [`smtp.${domain}`, `mail.${domain}`]),
      ]);
      take('imap', imap);
      take('smtp', smtp);
    }
  } finally {
    await fetcher.close();
  }

  if (timedOut.size > 0) {
    const names = [...timedOut];
    const listed =
      names.length > 4 ? `${names.slice(0, 4).join(', ')} and ${names.length - 4} more` : names.join(', ');
    warnings.push(`DNS did not answer in time for ${listed}.`);
  }
  if (!taken.imap) {
    throw new DiscoveryError(
      'nothing_found',
      [
        `No mail settings were found for ${domain} (its autoconfig file, SRV and MX records and the usual host names were tried): enter the servers yourself.`,
        ...warnings,
      ].join(' '),
    );
  }
  return result(address, taken, sources, warnings);

  async function readConfig(
    u: string,
  ): Promise<{ config: ClientConfig; url: string; https: boolean } | null> {
    try {
      const fetched = await fetcher.fetch(u);
      try {
        const config = readClientConfig(fetched.text, address as string);
        for (const s of config.skipped) warnings.push(`The autoconfig file at ${fetched.url}: ${s}.`);
        return { config, url: fetched.url, https: fetched.https };
      } catch (e) {
        if (!(e instanceof ConfigFileError)) throw e;
        warnings.push(`The autoconfig file at ${fetched.url} was not used: ${e.message}.`);
        return null;
      }
    } catch (e) {
      if (!(e instanceof FetchFailure)) throw e;
      if (/^DNS did not answer/.test(e.message)) timedOut.add(new URL(u).hostname);
      // No file there is the usual case, not worth a warning.
      else if (!e.missing) warnings.push(`The autoconfig file at ${u} was not used: ${e.message}.`);
      return null;
    }
  }

  function configPicks(config: ClientConfig, u: string, https: boolean) {
    const from = https ? 'autoconfig (https)' : 'autoconfig (http)';
    const choose = (kind: 'imap' | 'smtp') => {
      const servers = [...config[kind]].sort((a, b) => tlsOrder[a.tls] - tlsOrder[b.tls]);
      for (const s of servers) {
        const checked = checkServer(kind === 'imap' ? 'IMAP' : 'SMTP', s);
        if (!checked.ok) {
          const elsewhere = within(s.host, domain) ? '' : `, a host outside ${domain},`;
          warnings.push(
            s.tls === 'none'
              ? `The autoconfig file at ${u} names ${kind.toUpperCase()} at ${s.host}:${s.port}${elsewhere} without TLS: a password sent there would cross the network unencrypted, so it was not used.`
              : `The autoconfig file at ${u}: ${checked.reason}`,
          );
          continue;
        }
        return { s, server: checked.value };
      }
      return null;
    };
    const imap = choose('imap');
    const smtp = choose('smtp');
    if (imap && !taken.imap) {
      const preset = imap.s.oauth ? (presetOf(config.oauthIssuer ?? imap.s.host) ?? undefined) : undefined;
      const issuer = imap.s.oauth && !preset && config.oauthIssuer ? config.oauthIssuer : undefined;
      take('imap', {
        server: imap.server,
        from,
        detail: u,
        verified: https,
        user: imap.s.user ?? address ?? undefined,
        auth: {
          auth: imap.s.oauth ? 'oauth' : 'password',
          ...(preset ? { oauthPreset: preset } : {}),
          ...(issuer ? { oauthIssuer: /^https?:\/\//.test(issuer) ? issuer : `https://${issuer}` } : {}),
        },
      });
    }
    if (smtp) take('smtp', { server: smtp.server, from, detail: u, verified: https });
    if (!https && (taken.imap?.from === from || taken.smtp?.from === from)) {
      warnings.push(
        `The settings from ${u} came over plain HTTP, which anyone on the network could have changed: check the host names before you sign in.`,
      );
    }
  }

  async function srvPicks() {
    const [imaps = [], imap = [], submissions = [], submission = []] = await Promise.all(srv);
    const candidates = (records: Awaited<(typeof srv)[number]>, name: string, tls: 'tls' | 'starttls') => {
      // RFC 6186 §3.4 (RFC 2782): a target of "." is "no such service here".
      const real = records.filter((r) => r.name !== '' && r.name !== '.');
      if (records.length > 0 && real.length === 0) return [];
      // Lowest priority first; among equals the heaviest, so the form shows the same answer each time.
      return real
        .sort((a, b) => a.priority - b.priority || b.weight - a.weight)
        .map((r) => ({ name, host: r.name.toLowerCase().replace(/\.$/, ''), port: r.port, tls }));
    };
    const pickOf = async (
      kind: 'imap' | 'smtp',
      list: ReturnType<typeof candidates>,
    ): Promise<Found | undefined> => {
      let unreached: Found | undefined;
      for (const c of list.slice(0, 4)) {
        const checked = checkServer(kind === 'imap' ? 'IMAP' : 'SMTP', {
          host: c.host,
          port: c.port,
          tls: c.tls,
        });
        if (!checked.ok) {
          warnings.push(`The SRV record ${c.name} was not used: ${checked.reason}`);
          continue;
        }
        const answer = await probe(kind, c.host, c.port, c.tls, probeOptions);
        // RFC 6186 §6: DNS is not authenticated; a target in the address's own domain is the domain's word.
        const inDomain = within(c.host, domain);
        const pick: Found = {
          server: checked.value,
          from: 'SRV',
          detail: `${c.name} → ${c.host}:${c.port}`,
          verified: inDomain,
        };
        if (answer.ok) return pick;
        if (answer.why === 'unreachable') {
          unreached ??= { ...pick, verified: false };
          continue;
        }
        // SECURITY: an SRV record that points at a port answering without TLS (or with a certificate not for
        // that host) would send the password where it can be read: refused, with the reason.
        warnings.push(
          `The SRV record ${c.name} points to ${c.host}:${c.port}, which was not used: ${answer.sentence}.`,
        );
      }
      if (unreached) {
        warnings.push(
          `${hostPort(unreached.server)} (from the SRV record ${unreached.detail.split(' ')[0]}) could not be reached to check it.`,
        );
      }
      return unreached;
    };
    if (!taken.imap) {
      // RFC 8314: implicit TLS first.
      take(
        'imap',
        await pickOf('imap', [
          ...candidates(imaps, srvNames[0] as string, 'tls'),
          ...candidates(imap, srvNames[1] as string, 'starttls'),
        ]),
      );
    }
    if (!taken.smtp) {
      take(
        'smtp',
        await pickOf('smtp', [
          ...candidates(submissions, srvNames[2] as string, 'tls'),
          ...candidates(submission, srvNames[3] as string, 'starttls'),
        ]),
      );
    }
    if (taken.imap?.from === 'SRV' && !taken.imap.verified) {
      warnings.push(
        `The SRV records point to ${taken.imap.server.host}, outside ${domain}: make sure that is your provider before you sign in.`,
      );
    }
  }

  async function guess(kind: 'imap' | 'smtp', hosts: string[]): Promise<Found | undefined> {
    const tries =
      kind === 'imap'
        ? ([
            [ports.imaps, 'tls'],
            [ports.imap, 'starttls'],
          ] as const)
        : ([
            [ports.submissions, 'tls'],
            [ports.submission, 'starttls'],
          ] as const);
    for (const host of hosts) {
      const found = await onDns(host, dns.addresses(host));
      if (found.length === 0) continue;
      for (const [port, tls] of tries) {
        const answer = await probe(kind, host, port, tls, probeOptions);
        if (answer.ok) {
          const server = { host, port, tls };
          warnings.push(
            `The ${kind.toUpperCase()} server ${host}:${port} is a guess (it answered ${tls === 'tls' ? 'with TLS' : 'with STARTTLS'}, without a login): check it before you sign in.`,
          );
          return {
            server,
            from: `guess: probed ${host}`,
            detail: `${host}:${port} (${tls})`,
            verified: false,
          };
        }
        if (answer.why !== 'unreachable') {
          warnings.push(`${host}:${port} was not used for ${kind.toUpperCase()}: ${answer.sentence}.`);
        }
      }
    }
    return undefined;
  }
}

function providerPicks(
  p: Provider,
  from: string,
  detail: string,
  address: string,
  take: (kind: 'imap' | 'smtp', pick: Found) => void,
) {
  take('imap', {
    server: p.imap,
    from,
    detail,
    verified: true,
    user: address,
    auth: { auth: p.auth, ...(p.oauthPreset ? { oauthPreset: p.oauthPreset } : {}) },
  });
  take('smtp', { server: p.smtp, from, detail, verified: true });
}

function result(
  address: string,
  taken: { imap?: Found; smtp?: Found },
  sources: SettingSource[],
  warnings: string[],
): Discovery {
  const imap = taken.imap as Found;
  const source = (setting: SettingSource['setting'], p: Found) =>
    sources.push({ setting, from: p.from, detail: p.detail, verified: p.verified });
  source('imap', imap);
  if (taken.smtp) source('smtp', taken.smtp);
  else warnings.push('No SMTP server was found: enter one to send mail from this account.');
  // SECURITY: a sign-in's token goes to both servers; one the sign-in's source did not name is said so.
  if (taken.smtp && imap.auth?.auth === 'oauth' && taken.smtp.from !== imap.from) {
    warnings.push(
      `The SMTP server ${hostPort(taken.smtp.server)} comes from ${taken.smtp.from}, not from where the sign-in was found (${imap.from}): the sign-in's token would be sent to it, so check it first.`,
    );
  }
  source('auth', imap);
  return {
    settings: {
      imap: imap.server,
      smtp: taken.smtp?.server ?? null,
      user: imap.user ?? address,
      auth: 'password',
      ...imap.auth,
    },
    sources,
    warnings,
  };
}
