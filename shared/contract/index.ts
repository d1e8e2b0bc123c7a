// The contract between the renderer and the main process (DESIGN §2). Every channel, its request and
// response schema, and every stream event live in shared/contract/ and nowhere else: the preload exposes
// exactly these channel names, and the main side parses every request with these schemas before anything
// else. Each domain keeps its channels in its own file; this one composes them.
import { z } from 'zod';
import { accountChannels } from './accounts.ts';
import { agentChannels } from './agents.ts';
import { appChannels, linkChannels } from './app.ts';
import { auditChannels, grantChannels } from './approvals.ts';
import { attachmentChannels } from './attachments.ts';
import { chatChannels } from './chat.ts';
import { discoverChannels } from './discover.ts';
import { documentChannels } from './documents.ts';
import { draftReplyChannels } from './draft-replies.ts';
import { draftChannels, outboxChannels } from './drafts.ts';
import { BridgeError } from './fields.ts';
import { fileChannels } from './files.ts';
import { folderChannels } from './folders.ts';
import { identityChannels } from './identities.ts';
import { invitationChannels } from './invitations.ts';
import { labelChannels } from './labels.ts';
import { mailChannels } from './mail.ts';
import { mailBulkChannels } from './mail-bulk.ts';
import { oauthChannels } from './oauth.ts';
import { modelChannels, serviceChannels } from './services.ts';
import { runChannels, type StreamEvent } from './streams.ts';
import { summaryChannels } from './summary.ts';
import { judgeChannels, triageChannels } from './triage.ts';
import { unsubscribeChannels } from './unsubscribe.ts';

export * from './accounts.ts';
export * from './agents.ts';
export * from './app.ts';
export * from './approvals.ts';
export * from './attachments.ts';
export * from './chat.ts';
export * from './discover.ts';
export * from './documents.ts';
export * from './draft-replies.ts';
export * from './drafts.ts';
export * from './fields.ts';
export * from './files.ts';
export * from './folders.ts';
export * from './identities.ts';
export * from './invitations.ts';
export * from './labels.ts';
export * from './limits.ts';
export * from './mail.ts';
export * from './mail-bulk.ts';
export * from './services.ts';
export * from './streams.ts';
export * from './summary.ts';
export * from './triage.ts';
export * from './unsubscribe.ts';

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

export const envelope = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: BridgeError }),
  ]);

export const channels = {
  ...appChannels,
  ...documentChannels,
  ...fileChannels,
  ...mailChannels,
  ...mailBulkChannels,
  ...accountChannels,
  ...oauthChannels,
  ...discoverChannels,
  ...identityChannels,
  ...labelChannels,
  ...folderChannels,
  ...draftChannels,
  ...outboxChannels,
  ...draftReplyChannels,
  ...judgeChannels,
  ...triageChannels,
  ...summaryChannels,
  ...serviceChannels,
  ...modelChannels,
  ...chatChannels,
  ...grantChannels,
  ...auditChannels,
  ...agentChannels,
  ...runChannels,
  ...linkChannels,
  ...attachmentChannels,
  ...unsubscribeChannels,
  ...invitationChannels,
} as const;

export type Channel = keyof typeof channels;
export const channelNames = Object.keys(channels) as Channel[];
export type Request<C extends Channel> = z.input<(typeof channels)[C]['request']>;
export type Response<C extends Channel> = z.output<(typeof channels)[C]['response']>;

// The surface the renderer sees as `window.skimmer`: one function per channel, plus subscribe.
export type SkimmerApi = {
  readonly [C in Channel]: (request: Request<C>) => Promise<Envelope<Response<C>>>;
} & {
  readonly subscribe: (streamId: string, onEvent: (event: StreamEvent) => void) => () => void;
};
