// `skimmer account discover ADDRESS [--json]`: the settings found from an address (DESIGN §11), through the
// `account:discover` channel, each with where it came from; nothing is stored and nothing logs in. It prints
// the `skimmer account add` line that would use them, for the person to read, change and run.
import { channels } from '../../shared/contract/index.ts';
import type { App } from '../app.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command } from './command.ts';
import { UsageError } from './failures.ts';
import { familyUsageSentence } from './flags.ts';

type Found = ReturnType<(typeof channels)['account:discover']['response']['parse']>;

// A word for the shell: quoted when it holds anything but the usual characters of hosts and addresses.
const shellWord = (s: string) => (/^[\w@.:%+/-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);

function lines(found: Found, address: string): string[] {
  const { settings, sources, warnings } = found;
  const from = (setting: 'imap' | 'smtp' | 'auth') => {
    const s = sources.find((x) => x.setting === setting);
    return s ? `from ${s.from} (${s.detail})${s.verified ? '' : ', unverified: check it'}` : '';
  };
  const server = (s: { host: string; port: number; tls: string }) => `${s.host}:${s.port} ${s.tls}`;
  const signIn =
    settings.auth === 'oauth'
      ? `OAuth sign-in${settings.oauthPreset ? ` (${settings.oauthPreset})` : settings.oauthIssuer ? ` at ${settings.oauthIssuer}` : ''}`
      : 'password';
  const out = [
    `Settings for ${address}:`,
    `  IMAP     ${server(settings.imap).padEnd(36)}${from('imap')}`,
    settings.smtp ? `  SMTP     ${server(settings.smtp).padEnd(36)}${from('smtp')}` : '  SMTP     none found',
    `  User     ${settings.user}`,
    `  Sign-in  ${signIn.padEnd(36)}${from('auth')}`,
    ...warnings.map((w) => `Warning: ${w}`),
  ];
  const smtp = settings.smtp
    ? ` --smtp-host ${shellWord(settings.smtp.host)} --smtp-port ${settings.smtp.port} --smtp-tls ${settings.smtp.tls}`
    : '';
  const auth =
    settings.auth === 'oauth'
      ? ` --oauth ${shellWord(settings.oauthPreset ?? settings.oauthIssuer ?? 'ISSUER_URL')} --client-id ID`
      : ' --password-stdin';
  out.push(
    'To add it, check the settings above, then run:',
    `  skimmer account add NAME --imap-host ${shellWord(settings.imap.host)} --imap-port ${settings.imap.port} --tls ${settings.imap.tls} --user ${shellWord(settings.user)}${smtp}${auth}`,
  );
  return out;
}

export const discoverCommand: Command = async (app: App, args, values, io) => {
  const [sub, address, ...rest] = args;
  if (sub !== 'discover' || address === undefined || rest.length > 0) {
    throw new UsageError(familyUsageSentence('account'));
  }
  const r = await bridgeCall(app, 'account:discover', { address }, io);
  if (!r.ok) return r.exitCode;
  const found = channels['account:discover'].response.parse(r.value);
  if (values.json) io.out(JSON.stringify(found));
  else for (const line of lines(found, address.trim())) io.out(line);
  return 0;
};
