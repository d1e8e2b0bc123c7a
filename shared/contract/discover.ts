// Settings found from an address (issue 28 §2, DESIGN §11): what the account form shows, editable, before anything
// logs in. Each setting says where it came from and whether it is verified; nothing is stored by this channel.
import { z } from 'zod';

const TlsMode = z.enum(['tls', 'starttls', 'none']);
const Server = z.object({ host: z.string(), port: z.number().int().min(1).max(65535), tls: TlsMode });

const DiscoveredSettings = z.object({
  imap: Server,
  // Null when nothing named one: the person enters it.
  smtp: Server.nullable(),
  // The login name: the address unless an autoconfig file names another.
  user: z.string(),
  auth: z.enum(['password', 'oauth']),
  // The sign-in Skimmer has a preset for, when it is one.
  oauthPreset: z.enum(['google', 'microsoft', 'yahoo', 'aol']).optional(),
  // An autoconfig file's OAuth2 issuer for another provider (an https URL), for the sign-in to discover.
  oauthIssuer: z.string().optional(),
});

const SettingSource = z.object({
  setting: z.enum(['imap', 'smtp', 'auth']),
  // `built-in`, `autoconfig (https)`, `autoconfig (http)`, `SRV`, `MX: Google`, `guess: probed imap.example.com`.
  from: z.string(),
  // Where exactly: the file's URL, the SRV record, the MX host, the host and port probed.
  detail: z.string(),
  // False for a guess, plain HTTP, or SRV records outside the domain: shown, never used silently.
  verified: z.boolean(),
});

export const discoverChannels = {
  'account:discover': {
    // An address that is not one is `invalid_request`; nothing found is `not_found`, its sentence saying what
    // each source answered.
    request: z.object({ address: z.string().max(320) }).strict(),
    response: z.object({
      settings: DiscoveredSettings,
      sources: z.array(SettingSource),
      // Sentences: what a source refused (a file that is not XML, a port without TLS) and what to check.
      warnings: z.array(z.string()),
    }),
  },
} as const;
