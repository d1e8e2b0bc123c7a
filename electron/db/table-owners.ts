// Who owns each table (issue 30, DESIGN §1): the one folder whose code names it in SQL. Code elsewhere reads
// and writes through the owner's functions, or reads a view the owner offers (below), so a change to a table
// is made, and found, in one folder. test/table-owners.test.ts holds every file to this, and every table a
// migration creates must be listed here. Migrations are the exception: they are the schema's history.

const mail = 'electron/mail/';
const ai = 'electron/ai/';

export const tableOwners: Readonly<Record<string, string>> = {
  // The mailbox: accounts, folders, messages and what is done to them.
  accounts: mail,
  imap_accounts: mail,
  oauth_accounts: mail,
  imap_folders: mail,
  imap_locations: mail,
  folders: mail,
  messages: mail,
  messages_fts: mail,
  messages_fts_source: mail,
  threads: mail,
  thread_refs: mail,
  labels: mail,
  message_labels: mail,
  label_colours: mail,
  message_warnings: mail,
  message_unsubscribe: mail,
  unsubscribed_senders: mail,
  spam_origins: mail,
  trash_origins: mail,
  contacts: mail,
  contacts_version: mail,
  identities: mail,
  drafts: mail,
  draft_attachments: mail,
  outbox: mail,
  mail_ops: mail,
  undo_log: mail,
  import_failures: mail,
  invitation_answers: mail,
  invitation_versions: mail,
  // The assistant: services and models, conversations, what it may do and did, and its answers.
  services: ai,
  service_models: ai,
  model_defaults: ai,
  conversations: ai,
  conversation_messages: ai,
  runs: ai,
  grants: ai,
  audit: ai,
  judge_question_sets: ai,
  judge_answers: ai,
  triage_jobs: ai,
  triage_items: ai,
  thread_summaries: ai,
  ask_answers: ai,
  draft_assists: ai,
  // Outside agents' requests waiting for the app, and whether the app is open to answer them.
  agent_requests: 'electron/mcp/',
  app_presence: 'electron/mcp/',
  documents: 'electron/documents/',
  document_chunks: 'electron/documents/',
  document_chunks_fts: 'electron/documents/',
  secrets: 'electron/secrets/',
  retired_ids: 'electron/db/',
};

/** Views an owner offers the folders above it: anyone may read them (they are plain views over its tables). */
export const sharedViews: Readonly<Record<string, string>> = {
  message_keys: mail,
  thread_keys: mail,
};
