// The client ids a packaged build brings (issue 28: "from the build's configuration for a packaged app").
// Skimmer ships none in its source: whoever builds and signs a release registers their own desktop clients
// with Google and Microsoft and puts them in `oauth-clients.json` at the project's root, which electron-builder
// packs with the app (electron-builder.yml) and .gitignore keeps out of the repository. A person's own client id
// (the form, `--client-id`) always wins over the build's.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { isOAuthPreset, type OAuthPresetName } from '../../../shared/oauth-issuer.ts';
import type { OAuthClient } from './oauth-client.ts';

const Client = z
  .object({
    clientId: z.string().trim().min(1).max(512),
    // Google's desktop clients come with a "secret" that is not secret in an app people install (Google's docs
    // say so); it goes to the vault with the account like one a person pastes.
    clientSecret: z.string().min(1).max(512).optional(),
  })
  .strict();
const File = z.record(z.string(), Client);

export type BuildClients = Partial<Record<OAuthPresetName, OAuthClient>>;

/**
 * The build's clients by preset. No file: none (a build from source). A file that cannot be used is a sentence
 * in the log and no clients, never a refusal to start: the person can still give their own client id.
 */
export function readBuildClients(file: string, onUnusable: (why: string) => void): BuildClients {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') onUnusable(`${file} could not be read`);
    return {};
  }
  let parsed: z.infer<typeof File>;
  try {
    parsed = File.parse(JSON.parse(text));
  } catch {
    onUnusable(`${file} is not {"google": {"clientId": "…"}, …}`);
    return {};
  }
  const clients: BuildClients = {};
  for (const [name, client] of Object.entries(parsed)) {
    if (!isOAuthPreset(name)) {
      onUnusable(`${file} names "${name}", which is not a provider Skimmer knows`);
      continue;
    }
    clients[name] = client;
  }
  return clients;
}
