// The contract between the renderer and the main process (DESIGN §2). Every channel, its request and
// response schema, and every stream event live here and nowhere else: the preload exposes exactly these
// channel names, and the main side parses every request with these schemas before anything else.
import { z } from 'zod';
import { AiErrorCode } from './ai-errors.ts';
import { Answer as JudgeAnswer, Question as JudgeQuestion } from './judge.ts';

// A closed set of error codes: the model-service codes (DESIGN §6) plus the bridge's own. Callers branch on
// the code, never on the message, which is always a sentence written by Skimmer.
export const ErrorCode = z.enum([
  ...new Set([
    ...AiErrorCode.options,
    'invalid_request',
    'forbidden',
    'not_found',
    'cancelled',
    'busy',
    'io',
    'internal',
  ] as const),
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const BridgeError = z.object({ code: ErrorCode, message: z.string().max(500) });
export type BridgeError = z.infer<typeof BridgeError>;

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: BridgeError };

export const envelope = <T extends z.ZodType>(value: T) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: BridgeError }),
  ]);

const Id = z.number().int().positive();
const EpochMs = z.number().int();

export const Address = z.object({ name: z.string(), address: z.string() });
export type Address = z.infer<typeof Address>;

export const Folder = z.object({
  id: Id,
  name: z.string(),
  source: z.string(),
  total: z.number().int().nonnegative(),
  unread: z.number().int().nonnegative(),
});
export type Folder = z.infer<typeof Folder>;

export const ThreadSummary = z.object({
  id: Id,
  subject: z.string(),
  participants: z.array(z.string()),
  lastDate: EpochMs,
  count: z.number().int().positive(),
  unread: z.number().int().nonnegative(),
  snippet: z.string(),
  hasAttachments: z.boolean(),
});
export type ThreadSummary = z.infer<typeof ThreadSummary>;

export const Attachment = z.object({
  name: z.string(),
  contentType: z.string(),
  size: z.number().int().nonnegative(),
});
export type Attachment = z.infer<typeof Attachment>;

export const MessageView = z.object({
  id: Id,
  messageId: z.string(),
  threadId: Id,
  folderId: Id,
  subject: z.string(),
  from: Address,
  to: z.array(Address),
  cc: z.array(Address),
  date: EpochMs,
  text: z.string(),
  // The original HTML part, unsanitized: the renderer sanitizes it and shows it only in a sandboxed frame.
  html: z.string().nullable(),
  attachments: z.array(Attachment),
  unread: z.boolean(),
  // A change to this message that its mail server refused (write-back); `mail:retrySync` tries it again.
  syncError: z.string().nullable(),
});
export type MessageView = z.infer<typeof MessageView>;

export const SearchHit = z.object({
  id: Id,
  messageId: z.string(),
  threadId: Id,
  subject: z.string(),
  from: z.string(),
  date: EpochMs,
  snippet: z.string(),
});
export type SearchHit = z.infer<typeof SearchHit>;

export const ImportSummary = z.object({
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  failed: z.array(z.object({ source: z.string(), reason: z.string() })),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const VaultInfo = z.object({
  backend: z.enum(['safe-storage', 'file']),
  protection: z.enum(['encrypted', 'not-encrypted', 'file-permissions']),
  message: z.string(),
});
export type VaultInfo = z.infer<typeof VaultInfo>;

const PathArg = z.string().min(1).max(4096);

export const ServiceKind = z.enum(['openai', 'openai-responses', 'anthropic', 'decisions', 'systemone']);
export type ServiceKind = z.infer<typeof ServiceKind>;
// A service name is the part before the first "/" in `service/model`.
export const ServiceName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'use 1–64 letters, digits, dots, dashes or underscores')
  .max(64);
// A key is written once and never returned: views carry `hasKey` only.
const ApiKey = z.string().trim().min(1).max(4096);

export const ServiceView = z.object({
  id: Id,
  name: z.string(),
  kind: ServiceKind,
  baseUrl: z.string(),
  endpoint: z.string(),
  version: z.number().int().positive(),
  hasKey: z.boolean(),
  // Not on this computer: mail and document text go there only with the user's consent (`mailAllowed`).
  remote: z.boolean(),
  mailAllowed: z.boolean(),
  // What the user said the service charges, US dollars per million input tokens (for estimates only).
  inputPrice: z.number().nonnegative().nullable(),
});
export type ServiceView = z.infer<typeof ServiceView>;

export const ConversationSummary = z.object({
  id: Id,
  title: z.string(),
  model: z.string(),
  updatedAt: EpochMs,
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;
// Mail (or any text from it) as a model saw it, for the chat pane to show as an untrusted block: `source`
// names where it came from (`message:12`, or the tool that returned it), `text` is what the model received
// (hidden text already removed, capped for display), `quote` the line that looks like an injection.
export const UntrustedPart = z.object({
  source: z.string(),
  text: z.string(),
  suspect: z.boolean(),
  quote: z.string().nullable(),
});
export type UntrustedPart = z.infer<typeof UntrustedPart>;

export const ToolEffect = z.enum(['read', 'write', 'send', 'delete']);
export type ToolEffect = z.infer<typeof ToolEffect>;
// A tool result as the chat pane shows it: the tool's own text, and any mail in it as untrusted parts.
export const ToolResultView = z.object({
  id: z.string(),
  name: z.string(),
  isError: z.boolean(),
  text: z.string(),
  untrusted: z.array(UntrustedPart),
});
export type ToolResultView = z.infer<typeof ToolResultView>;

// One piece of a stored turn: the words, quoted mail (a user turn's context, not the user's words), a call
// the model made, or its result.
export const ChatBlock = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('quote'), parts: z.array(UntrustedPart) }),
  z.object({ kind: z.literal('tool_call'), id: z.string(), name: z.string(), args: z.unknown() }),
  ToolResultView.extend({ kind: z.literal('tool_result') }),
]);
export type ChatBlock = z.infer<typeof ChatBlock>;

export const Provenance = z.object({
  // Argument paths (`to[0]`, `body`) whose text came from an email and not from the user's words.
  fromUntrusted: z.array(z.string()),
  // Mail addresses and URLs in the arguments that the user never wrote.
  notNamedByUser: z.array(z.string()),
});
export type Provenance = z.infer<typeof Provenance>;

// A call the user is asked about, as the approval card shows it. `held` calls were already allowed (by the
// tool's gate or a grant) but belong to a round that waits for the user: they run when the round is answered,
// unless the user denies them too. `grantable`: "for this conversation" and "always" may be offered.
// `id` is Skimmer's own for the call (never the provider's alone) and `argsHash` the hash of its arguments:
// an answer names both, so it can only ever decide this call (DESIGN §7).
const ArgsHash = z
  .string()
  .length(64)
  .regex(/^[0-9a-f]{64}$/, 'an arguments hash is 64 hex digits');
export const ApprovalCall = z.object({
  id: z.string(),
  argsHash: ArgsHash,
  name: z.string(),
  effect: ToolEffect,
  args: z.unknown(),
  preview: z.object({ title: z.string(), lines: z.array(z.string()) }),
  provenance: Provenance,
  grantable: z.boolean(),
  held: z.boolean(),
});
export type ApprovalCall = z.infer<typeof ApprovalCall>;
// SECURITY: the card keeps one decision per call id, so a round's ids must be distinct (Skimmer makes them so).
const distinctIds = (items: readonly { id: string }[]) =>
  new Set(items.map((i) => i.id)).size === items.length;
const ApprovalRound = z.array(ApprovalCall).refine(distinctIds, 'two calls of a round have one id');

export const GrantScope = z.enum(['once', 'conversation', 'always']);
export const CallAnswer = z
  .object({
    id: z.string().min(1).max(200),
    argsHash: ArgsHash,
    decision: z.enum(['approve', 'deny']),
    // Given back to the model with a denial.
    reason: z.string().trim().max(1000).optional(),
    // With an approval of a `write` call: also allow this tool from now on, in this conversation or always.
    grant: GrantScope.default('once'),
  })
  .strict();
export type CallAnswer = z.input<typeof CallAnswer>;

export const GrantView = z.object({
  id: Id,
  tool: z.string(),
  scope: z.enum(['conversation', 'always']),
  conversationId: Id.nullable(),
  conversationTitle: z.string().nullable(),
  createdAt: EpochMs,
});
export type GrantView = z.infer<typeof GrantView>;

// A tool call of a conversation, or a step of a triage job (answers asked, a rule's approved writes).
export const AuditView = z.object({
  id: Id,
  at: EpochMs,
  conversationId: Id.nullable(),
  jobId: Id.nullable(),
  callId: z.string(),
  tool: z.string(),
  effect: ToolEffect,
  args: z.unknown(),
  provenance: Provenance,
  decision: z.enum(['allowed', 'approved', 'denied', 'auto-denied', 'invalid', 'cancelled']),
  decidedBy: z.enum(['gate', 'grant', 'user', 'engine']),
  resultSummary: z.string(),
  isError: z.boolean(),
});
export type AuditView = z.infer<typeof AuditView>;

export const UndoView = z.object({ id: Id, createdAt: EpochMs, description: z.string() });
export type UndoView = z.infer<typeof UndoView>;

// What the chat pane shows of a stored turn: its blocks in order, and `text` (the text blocks joined).
export const ChatTurn = z.object({
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  blocks: z.array(ChatBlock),
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }).nullable(),
  // Set when the turn was stopped or failed: Skimmer's sentence for how it ended.
  ended: z
    .object({ outcome: z.enum(['stopped', 'failed']), code: ErrorCode, message: z.string() })
    .nullable(),
  // Set when part of the answer could not be read but the turn went on (DESIGN §6): Skimmer's sentence.
  notice: z.object({ code: ErrorCode, message: z.string() }).optional(),
});
export type ChatTurn = z.infer<typeof ChatTurn>;

export const TlsMode = z.enum(['tls', 'starttls', 'none']);
// Host, port and TLS mode of a mail server; the full rules (plaintext only on loopback) are in
// shared/mail-account.ts and run in the main process before anything is stored.
export const ServerSettings = z
  .object({ host: z.string().trim().min(1).max(253), port: z.number().int().min(1).max(65535), tls: TlsMode })
  .strict();
export const AccountView = z.object({
  id: Id,
  name: z.string(),
  user: z.string(),
  imap: ServerSettings,
  smtp: ServerSettings.nullable(),
  // The password is written once and never returned.
  hasPassword: z.boolean(),
  syncedAt: EpochMs.nullable(),
  lastError: z.string().nullable(),
});
export type AccountView = z.infer<typeof AccountView>;
export const SyncSummary = z.object({
  folders: z.number().int().nonnegative(),
  messages: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  linked: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  flagsChanged: z.number().int().nonnegative(),
  pushed: z.number().int().nonnegative(),
});
export type SyncSummary = z.infer<typeof SyncSummary>;

export const OutboxItem = z.object({
  id: Id,
  accountId: Id,
  to: z.array(z.string()),
  subject: z.string(),
  state: z.enum(['queued', 'sending', 'sent', 'failed', 'cancelled']),
  error: z.string().nullable(),
  // Until then Undo cancels it.
  sendAfter: EpochMs,
  sentAt: EpochMs.nullable(),
});
export type OutboxItem = z.infer<typeof OutboxItem>;

export const QuestionSetView = z.object({
  id: Id,
  name: z.string(),
  questions: z.array(JudgeQuestion),
  updatedAt: EpochMs,
});
export type QuestionSetView = z.infer<typeof QuestionSetView>;
export const TriageScope = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('folder'), folderId: Id }).strict(),
  z.object({ kind: z.literal('query'), query: z.string().trim().min(1).max(500) }).strict(),
]);
export type TriageScope = z.infer<typeof TriageScope>;
export const TriageJobView = z.object({
  id: Id,
  setId: Id,
  model: z.string(),
  scope: TriageScope,
  state: z.enum(['running', 'paused', 'done', 'cancelled', 'failed']),
  error: z.string().nullable(),
  total: z.number().int().nonnegative(),
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type TriageJobView = z.infer<typeof TriageJobView>;
// A message's answers to a question set, for the chips in the thread list. `binary`: a chat model answered,
// so every probability is 0 or 1 (DESIGN §9).
export const MessageAnswers = z.object({
  messageId: Id,
  model: z.string(),
  certainty: z.enum(['probabilities', 'binary']),
  answers: z.array(JudgeAnswer),
});
export type MessageAnswers = z.infer<typeof MessageAnswers>;

// A grounded answer as the page shows it: the text with inline [id] marks, and each cited source with what
// it is (a message of the thread, or a document page) so a chip can open it. `cited: false` is an uncited
// draft. Citations are checked to exist, not checked to be true (DESIGN §10).
export const GroundedView = z.object({
  answer: z.string(),
  cited: z.boolean(),
  citations: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      messageId: Id.nullable(),
      documentId: Id.nullable(),
      location: z.string().nullable(),
    }),
  ),
  cached: z.boolean(),
  // What Skimmer chose to leave out to stay within the bounds (DESIGN §10), said to the user; null when nothing.
  note: z.string().nullable(),
});
export type GroundedView = z.infer<typeof GroundedView>;

export const DraftView = z.object({
  id: Id,
  to: z.array(z.string()),
  cc: z.array(z.string()),
  subject: z.string(),
  body: z.string(),
  inReplyTo: Id.nullable(),
  updatedAt: EpochMs,
});
export type DraftView = z.infer<typeof DraftView>;
const Recipient = z.email().max(320);

const maxQuestionSetBytes = 1024 * 1024;
const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

// A rule turns an answer into a suggested write (DESIGN §9); it never sends or deletes.
export const TriageRule = z
  .object({
    // A question's name, which has no documented length (DESIGN §9); a rule still needs a bound to fit one
    // browser-mode frame (shared/ws-protocol.ts), so a rule can name a question of up to 1,000 characters.
    question: z.string().min(1).max(1000),
    when: z.discriminatedUnion('op', [
      z.object({ op: z.literal('probability_at_least'), value: z.number().min(0).max(1) }),
      z.object({ op: z.literal('probability_below'), value: z.number().min(0).max(1) }),
      z.object({ op: z.literal('is'), value: z.union([z.string().max(255), z.boolean()]) }),
      z.object({ op: z.literal('score_at_least'), value: z.number().min(0).max(9) }),
      z.object({ op: z.literal('score_below'), value: z.number().min(0).max(10) }),
    ]),
    action: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('label'), label: z.string().trim().min(1).max(64) }),
      z.object({ kind: z.literal('move'), folder: z.string().trim().min(1).max(200) }),
      z.object({ kind: z.literal('archive') }),
      z.object({ kind: z.literal('mark_read') }),
    ]),
  })
  .strict();
export type TriageRule = z.infer<typeof TriageRule>;

// One of your addresses (DESIGN §11): each account's own (`account` names it), and those you add for imported
// mail; what a reply is sent from, with its name and signature. Stored lower-cased.
export const IdentityView = z.object({
  address: z.string(),
  name: z.string().nullable(),
  signature: z.string().nullable(),
  account: z.string().nullable(),
});
export type IdentityView = z.infer<typeof IdentityView>;
const identityChannels = {
  'identity:list': {
    request: z.object({}).strict(),
    response: z.array(IdentityView),
  },
  'identity:add': {
    // Adds an address, or changes its name or signature: a field left out stays, null or blank clears it.
    request: z
      .object({
        address: z.string().max(320),
        name: z.string().max(200).nullable().optional(),
        signature: z.string().max(10_000).nullable().optional(),
      })
      .strict(),
    response: z.object({ identity: IdentityView, added: z.boolean() }),
  },
  'identity:remove': {
    // An account's own address is refused (invalid_request): it stays yours while the account does.
    request: z.object({ address: z.string().max(320) }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
} as const;

export const channels = {
  ...identityChannels,
  'app:info': {
    request: z.object({}).strict(),
    response: z.object({
      version: z.string(),
      mode: z.enum(['desktop', 'browser']),
      vault: VaultInfo,
      messages: z.number().int().nonnegative(),
      demoAvailable: z.boolean(),
    }),
  },
  'documents:import': {
    // Files the user chose: .txt, .md, .pdf, .docx. The same file twice is one document.
    request: z.object({ paths: z.array(z.string().min(1).max(4096)).min(1).max(100) }).strict(),
    response: z.object({
      imported: z.array(
        z.object({
          id: Id,
          name: z.string(),
          chunks: z.number().int().nonnegative(),
          duplicate: z.boolean(),
        }),
      ),
      failed: z.array(z.object({ path: z.string(), reason: z.string() })),
    }),
  },
  'documents:list': {
    request: z.object({}).strict(),
    response: z.array(
      z.object({
        id: Id,
        name: z.string(),
        kind: z.enum(['txt', 'md', 'pdf', 'docx']),
        size: z.number().int().nonnegative(),
        importedAt: EpochMs,
        chunks: z.number().int().nonnegative(),
      }),
    ),
  },
  'documents:read': {
    // The page a document citation opens: the document's chunks as text, around `chunkId` when the whole
    // document is over 256 KiB (`note` says what is shown then).
    request: z
      .object({
        documentId: Id,
        chunkId: z
          .string()
          .regex(/^d\d+c\d+$/)
          .max(32)
          .optional(),
      })
      .strict(),
    response: z.object({
      id: Id,
      name: z.string(),
      kind: z.enum(['txt', 'md', 'pdf', 'docx']),
      chunks: z.array(z.object({ id: z.string(), location: z.string(), text: z.string() })),
      note: z.string().nullable(),
    }),
  },
  'documents:search': {
    // Beside mail: the chunks that match, with where they stand ("page 3") and a snippet.
    request: z
      .object({
        query: z.string().trim().min(1).max(500),
        limit: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    response: z.array(
      z.object({
        id: z.string(),
        documentId: Id,
        name: z.string(),
        location: z.string(),
        snippet: z.string(),
      }),
    ),
  },
  'mail:folders': {
    request: z.object({}).strict(),
    response: z.array(Folder),
  },
  'mail:threads': {
    request: z
      .object({
        folderId: Id.nullable().default(null),
        offset: z.number().int().nonnegative().max(10_000_000).default(0),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict(),
    response: z.object({ total: z.number().int().nonnegative(), threads: z.array(ThreadSummary) }),
  },
  'mail:thread': {
    request: z.object({ threadId: Id }).strict(),
    response: z.object({ id: Id, subject: z.string(), messages: z.array(MessageView) }),
  },
  'mail:search': {
    request: z
      .object({
        query: z.string().trim().min(1).max(500),
        limit: z.number().int().min(1).max(200).default(50),
      })
      .strict(),
    response: z.array(SearchHit),
  },
  'mail:import': {
    // Paths are the user's own choice of files on this machine; `demo` imports the bundled demo mailbox.
    request: z.union([
      z.object({ paths: z.array(PathArg).min(1).max(100) }).strict(),
      z.object({ demo: z.literal(true) }).strict(),
    ]),
    response: z.object({ streamId: z.string() }),
  },
  'mail:archive': {
    // Moves to the account's Archive (its server's, for a synced account); undoable; queued for the server.
    request: z.object({ ids: z.array(Id).min(1).max(1000) }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:trash': {
    request: z.object({ ids: z.array(Id).min(1).max(1000) }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'mail:retrySync': {
    // Queues the refused changes of a message again; the background sync sends them.
    request: z.object({ id: Id }).strict(),
    response: z.object({ queued: z.number().int().nonnegative() }),
  },
  'mail:markRead': {
    request: z.object({ ids: z.array(Id).min(1).max(1000), read: z.boolean() }).strict(),
    response: z.object({ changed: z.number().int().nonnegative() }),
  },
  'account:list': {
    request: z.object({}).strict(),
    response: z.array(AccountView),
  },
  'account:add': {
    // Saving never connects; "Test" and "Sync" are explicit actions.
    request: z
      .object({
        name: z.string().trim().min(1).max(64),
        user: z.string().trim().min(1).max(320),
        password: z.string().min(1).max(4096),
        imap: ServerSettings,
        smtp: ServerSettings.optional(),
      })
      .strict(),
    response: AccountView,
  },
  'account:update': {
    // A new password (after the server refused the old one): saved, and the background sync starts again.
    request: z.object({ id: Id, password: z.string().min(1).max(4096) }).strict(),
    response: AccountView,
  },
  'account:test': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'account:remove': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
  'account:sync': {
    // Progress streams as sync_progress, then sync_done or error; Stop is run:cancel.
    request: z.object({ id: Id }).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'account:watch': {
    // One stream for the page's lifetime: account_status events of every account's background sync, and an
    // outbox event whenever a message in the outbox changes (queued, sent, failed, cancelled, dismissed).
    request: z.object({}).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'account:focus': {
    // The folder the page shows (null: none, or all mail): its account's background sync waits for news on it
    // (IDLE) instead of INBOX. `watching` is false when no background sync watches that folder.
    request: z.object({ folderId: Id.nullable() }).strict(),
    response: z.object({ watching: z.boolean() }),
  },
  'draft:list': {
    request: z.object({}).strict(),
    response: z.array(DraftView),
  },
  'draft:save': {
    request: z
      .object({
        id: Id,
        to: z.array(Recipient).max(50),
        cc: z.array(Recipient).max(50),
        subject: z.string().max(998),
        body: z.string().max(100_000),
      })
      .strict(),
    response: DraftView,
  },
  'draft:send': {
    // The user's own Send: the draft goes to the outbox (10 s to undo) and leaves the drafts.
    request: z.object({ id: Id }).strict(),
    response: OutboxItem,
  },
  'draft:discard': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ discarded: z.boolean() }),
  },
  'outbox:list': {
    request: z.object({}).strict(),
    response: z.array(OutboxItem),
  },
  'outbox:cancel': {
    // Undo a send: works until the message starts to go out, and puts the message back in the drafts (in the
    // same transaction) as `draft`; null when it was not cancelled (already on its way, sent, or unknown).
    request: z.object({ id: Id }).strict(),
    response: z.object({ cancelled: z.boolean(), draft: Id.nullable() }),
  },
  'outbox:retry': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ queued: z.boolean() }),
  },
  'outbox:dismiss': {
    // A failed or cancelled message leaves the outbox and goes back to the drafts, as this draft.
    request: z.object({ id: Id }).strict(),
    response: z.object({ draft: DraftView }),
  },
  'judge:sets': {
    // The user's question sets; a new database starts with the starters.
    request: z.object({}).strict(),
    response: z.array(QuestionSetView),
  },
  'judge:saveSet': {
    request: z
      .object({
        id: Id.optional(),
        name: z.string().trim().min(1).max(80),
        // No count limit: neither decision API documents one (DESIGN §9). The set is capped as a whole, so it
        // fits in one browser-mode frame (shared/ws-protocol.ts).
        questions: z
          .array(JudgeQuestion)
          .min(1)
          .refine((q) => jsonBytes(q) <= maxQuestionSetBytes, 'these questions come to more than 1 MiB.')
          .meta({ maxJsonBytes: maxQuestionSetBytes }),
      })
      .strict(),
    response: QuestionSetView,
  },
  'judge:removeSet': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
  'judge:addStarters': {
    // The five starter questions as a new set, whenever the user wants them (a name not yet taken).
    request: z.object({}).strict(),
    response: QuestionSetView,
  },
  'judge:answers': {
    // Cached answers (any model, the newest) for messages with an answer to every question of the set.
    request: z.object({ setId: Id, messageIds: z.array(Id).min(1).max(500) }).strict(),
    response: z.array(MessageAnswers),
  },
  'judge:threadAnswers': {
    // For the thread list: per thread, the answers of its newest message that has them.
    request: z.object({ setId: Id, threadIds: z.array(Id).min(1).max(500) }).strict(),
    response: z.array(MessageAnswers.extend({ threadId: Id })),
  },
  'triage:suggest': {
    // The batch approval card: per rule, what it would do to which messages (those with answers to the set).
    request: z.object({ setId: Id, scope: TriageScope, rules: z.array(TriageRule).min(1).max(20) }).strict(),
    response: z.array(
      z.object({
        rule: z.number().int().nonnegative(),
        action: z.string(),
        messages: z.array(z.object({ id: Id, subject: z.string(), from: z.string() })),
      }),
    ),
  },
  'triage:apply': {
    // Carries out what the user approved on the card: undoable writes, queued for the mail server.
    request: z
      .object({
        setId: Id,
        scope: TriageScope,
        rules: z.array(TriageRule).min(1).max(20),
        approve: z
          .array(
            z.object({ rule: z.number().int().nonnegative(), messageIds: z.array(Id).min(1).max(10_000) }),
          )
          .min(1)
          .max(20),
      })
      .strict(),
    response: z.object({ applied: z.number().int().nonnegative(), undo: z.array(UndoView) }),
  },
  'triage:estimate': {
    // Before a bulk run; contacts nothing. With a model whose service has a price: the cost in US dollars.
    request: z
      .object({ setId: Id, scope: TriageScope, model: z.string().trim().min(3).max(300).optional() })
      .strict(),
    response: z.object({
      messages: z.number().int().nonnegative(),
      inputTokens: z.number().int().nonnegative(),
      seconds: z.number().int().nonnegative(),
      cost: z.number().nonnegative().nullable(),
    }),
  },
  'triage:start': {
    // Progress streams as triage_progress, then triage_done; Stop pauses (run:cancel) and keeps what is done.
    request: z.object({ setId: Id, model: z.string().trim().min(3).max(300), scope: TriageScope }).strict(),
    response: z.object({ job: TriageJobView, streamId: z.string() }),
  },
  'triage:jobs': {
    request: z.object({}).strict(),
    response: z.array(TriageJobView),
  },
  'triage:resume': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ streamId: z.string() }),
  },
  'triage:cancel': {
    request: z.object({ id: Id }).strict(),
    response: TriageJobView,
  },
  'summary:thread': {
    // Streams summary_done or error; Stop is run:cancel. Cached per thread version, model and question.
    request: z
      .object({
        threadId: Id,
        model: z.string().trim().min(3).max(300),
        question: z.string().trim().min(1).max(2000).optional(),
        refresh: z.boolean().default(false),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'summary:ask': {
    // A question over this thread, a selection of messages and/or documents, named by id: Skimmer loads the
    // text (DESIGN §10). Streams summary_done or error like summary:thread; Stop is run:cancel. Cached per
    // model, question, message ids (a thread's as it is now) and document ids; `refresh` asks again.
    request: z
      .object({
        model: z.string().trim().min(3).max(300),
        question: z.string().trim().min(1).max(2000),
        threadId: Id.optional(),
        messageIds: z.array(Id).min(1).max(50).optional(),
        documentIds: z.array(Id).min(1).max(20).optional(),
        refresh: z.boolean().default(false),
      })
      .strict()
      .refine((r) => r.threadId !== undefined || r.messageIds !== undefined || r.documentIds !== undefined, {
        message: 'Name a thread, messages or documents to ask about.',
      }),
    response: z.object({ streamId: z.string() }),
  },
  'service:list': {
    request: z.object({}).strict(),
    response: z.array(ServiceView),
  },
  'service:add': {
    request: z
      .object({
        name: ServiceName,
        kind: ServiceKind,
        baseUrl: z.string().min(1).max(2048),
        key: ApiKey.optional(),
      })
      .strict(),
    response: ServiceView,
  },
  'service:update': {
    request: z
      .object({
        id: Id,
        name: ServiceName.optional(),
        baseUrl: z.string().min(1).max(2048).optional(),
        key: ApiKey.optional(),
        removeKey: z.literal(true).optional(),
      })
      .strict(),
    response: ServiceView,
  },
  'service:price': {
    // Bookkeeping for the triage estimate: no network, no new version, consent unchanged.
    request: z.object({ id: Id, inputPrice: z.number().min(0).max(10_000).nullable() }).strict(),
    response: ServiceView,
  },
  'service:models': {
    // An explicit user action: the only channel here that contacts the service.
    request: z.object({ id: Id }).strict(),
    response: z.discriminatedUnion('listed', [
      z.object({ listed: z.literal(true), models: z.array(z.string()) }),
      z.object({ listed: z.literal(false), reason: z.string() }),
    ]),
  },
  'service:test': {
    // "Test connection": an explicit user action; reaches the service's model list with the saved key.
    request: z.object({ id: Id }).strict(),
    response: z.object({ ok: z.boolean(), message: z.string() }),
  },
  'service:consent': {
    // The user's answer to "send mail and documents to <endpoint>?" for a service not on this computer.
    request: z.object({ id: Id, allow: z.boolean() }).strict(),
    response: ServiceView,
  },
  'service:remove': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ removed: z.boolean() }),
  },
  'chat:send': {
    // `model` is `service/model`; the answer streams as chat_* events on the returned stream.
    request: z
      .object({
        model: z.string().trim().min(3).max(300),
        prompt: z.string().trim().min(1).max(100_000),
        conversationId: Id.optional(),
        // Let the assistant use the mail tools: reads run, anything else waits for the user's approval.
        tools: z.boolean().default(false),
        // Messages quoted as context: sent to the model as untrusted blocks before the prompt.
        quote: z.array(Id).min(1).max(20).optional(),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'chat:answer': {
    // Answers the calls an interrupted run waits for; the run resumes on the returned stream. `model`
    // defaults to the conversation's own.
    request: z
      .object({
        conversationId: Id,
        answers: z.array(CallAnswer).min(1).max(100).refine(distinctIds, 'two answers name one call'),
        model: z.string().trim().min(3).max(300).optional(),
      })
      .strict(),
    response: z.object({ streamId: z.string() }),
  },
  'chat:list': {
    request: z.object({}).strict(),
    response: z.array(ConversationSummary),
  },
  'chat:history': {
    request: z.object({ conversationId: Id }).strict(),
    // `pending`: the calls the conversation's last run waits for (empty unless it was interrupted).
    response: z.object({
      conversation: ConversationSummary,
      turns: z.array(ChatTurn),
      pending: ApprovalRound,
    }),
  },
  'grant:list': {
    request: z.object({}).strict(),
    response: z.array(GrantView),
  },
  'grant:revoke': {
    request: z.object({ id: Id }).strict(),
    response: z.object({ revoked: z.literal(true) }),
  },
  'audit:list': {
    request: z
      .object({
        conversationId: Id.optional(),
        jobId: Id.optional(),
        limit: z.number().int().min(1).max(1000).default(200),
      })
      .strict(),
    response: z.array(AuditView),
  },
  'mail:undoable': {
    // The newest actions that can still be undone, newest first.
    request: z.object({ limit: z.number().int().min(1).max(50).default(5) }).strict(),
    response: z.array(UndoView),
  },
  'mail:undo': {
    // Undoes the newest `count` actions not yet undone, or exactly the one with this `id` (from mail:undoable).
    request: z.union([
      z.object({ count: z.number().int().min(1).max(50).default(1) }).strict(),
      z.object({ id: Id }).strict(),
    ]),
    response: z.object({ undone: z.array(UndoView) }),
  },
  'run:cancel': {
    request: z.object({ streamId: z.string().min(1).max(100) }).strict(),
    response: z.object({ cancelled: z.boolean() }),
  },
  'link:open': {
    // Called only after the user has seen the real URL in Skimmer's own confirmation.
    request: z.object({ url: z.string().min(1).max(8192) }).strict(),
    response: z.object({ opened: z.boolean(), url: z.string() }),
  },
} as const;

export type Channel = keyof typeof channels;
export const channelNames = Object.keys(channels) as Channel[];
export type Request<C extends Channel> = z.input<(typeof channels)[C]['request']>;
export type ParsedRequest<C extends Channel> = z.output<(typeof channels)[C]['request']>;
export type Response<C extends Channel> = z.output<(typeof channels)[C]['response']>;

// Stream events. Each carries the streamId of the call that started it; a stop is `run:cancel`.
export const ImportProgress = z.object({
  type: z.literal('import_progress'),
  messages: z.number().int().nonnegative(),
  imported: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  bytesDone: z.number().nonnegative(),
  bytesTotal: z.number().nonnegative(),
  perSecond: z.number().nonnegative(),
  etaSeconds: z.number().nonnegative().nullable(),
});
export const StreamEvent = z.discriminatedUnion('type', [
  ImportProgress,
  z.object({ type: z.literal('chat_start'), conversationId: Id }),
  z.object({ type: z.literal('chat_text'), text: z.string() }),
  // Why the request is being retried (rate_limited, unavailable, transport, timeout) and when.
  z.object({ type: z.literal('chat_retry'), code: ErrorCode, seconds: z.number().nonnegative() }),
  z.object({ type: z.literal('chat_usage'), inputTokens: z.number().int(), outputTokens: z.number().int() }),
  // Part of the answer could not be read; the answer goes on, and is kept marked (DESIGN §6).
  z.object({ type: z.literal('chat_notice'), code: ErrorCode, message: z.string() }),
  // Quoted mail exactly as the model will see it, right after chat_start.
  z.object({ type: z.literal('chat_context'), parts: z.array(UntrustedPart) }),
  z.object({ type: z.literal('chat_tool_call'), id: z.string(), name: z.string(), args: z.unknown() }),
  ToolResultView.extend({ type: z.literal('chat_tool_result') }),
  // Ends the stream: the run waits for the user's answer to these calls (`chat:answer`).
  z.object({ type: z.literal('chat_interrupted'), conversationId: Id, calls: ApprovalRound }),
  z.object({ type: z.literal('chat_done'), stopReason: z.string() }),
  // One sentence by Skimmer, and the provider's own words only as a redacted, capped detail.
  z.object({
    type: z.literal('chat_error'),
    code: ErrorCode,
    message: z.string(),
    detail: z.string().max(200).optional(),
  }),
  z.object({ type: z.literal('import_done'), summary: ImportSummary, cancelled: z.boolean() }),
  z.object({
    type: z.literal('sync_progress'),
    folder: z.string(),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  z.object({ type: z.literal('sync_done'), summary: SyncSummary }),
  z.object({
    type: z.literal('triage_progress'),
    jobId: Id,
    done: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    perSecond: z.number().nonnegative(),
    etaSeconds: z.number().nonnegative().nullable(),
  }),
  z.object({ type: z.literal('triage_done'), job: TriageJobView }),
  z.object({ type: z.literal('summary_done'), result: GroundedView }),
  // From `account:watch`: how an account's background sync stands; `changed` when mail was added, moved or
  // removed, so the page reloads what it shows.
  z.object({
    type: z.literal('account_status'),
    accountId: Id,
    state: z.enum(['syncing', 'synced', 'retrying', 'failed', 'stopped']),
    message: z.string().nullable(),
    retryInSeconds: z.number().nonnegative().nullable(),
    changed: z.boolean(),
    progress: z
      .object({
        folder: z.string(),
        done: z.number().int().nonnegative(),
        total: z.number().int().nonnegative(),
      })
      .nullable(),
    // With `synced`: what that round did.
    summary: SyncSummary.nullable(),
  }),
  // From `account:watch`: a message in the outbox changed; `item` is null when it left the outbox (dismissed
  // back to the drafts).
  z.object({ type: z.literal('outbox'), id: Id, item: OutboxItem.nullable() }),
  z.object({ type: z.literal('error'), error: BridgeError }),
]);
export type StreamEvent = z.infer<typeof StreamEvent>;
export const StreamMessage = z.object({ streamId: z.string(), event: StreamEvent });
export type StreamMessage = z.infer<typeof StreamMessage>;

// The surface the renderer sees as `window.skimmer`: one function per channel, plus subscribe.
export type SkimmerApi = {
  readonly [C in Channel]: (request: Request<C>) => Promise<Envelope<Response<C>>>;
} & {
  readonly subscribe: (streamId: string, onEvent: (event: StreamEvent) => void) => () => void;
};
