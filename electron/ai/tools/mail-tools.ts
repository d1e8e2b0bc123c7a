// The mail tools the engine offers a model (issue: AI tools over mail). Reads return short JSON or, for
// a thread, one untrusted block per message; every write goes through mail/store/undo.ts so the UI can offer
// Undo. `send_mail` queues the message in the outbox (undoable for the undo window); with no account able
// to send, it fails and says so.
import { z } from 'zod';
import type { MessageWarning } from '../../../shared/contract/index.ts';
import { undoWindowText } from '../../../shared/undo-window.ts';
import type { Db } from '../../db/open.ts';
import type { prepareOutbox } from '../../mail/send/outbox.ts';
import { prepareTrashTarget } from '../../mail/store/trash-target.ts';
import type { prepareMailActions } from '../../mail/store/undo.ts';
import { stripHiddenText } from '../../text/hidden-characters.ts';
import { hiddenHtmlText } from '../../text/hidden-html.ts';
import { suspectInjection } from '../../text/injection.ts';
import type { SomeAssistantReads } from '../mail-reads.ts';
import { WrappedUntrusted } from '../safety/untrusted.ts';
import { prepareMailPreviews } from './mail-previews.ts';
import { MailAddress } from './recipient-arg.ts';
import type { AnyTool, Tool } from './tool.ts';

const maxIds = 500;
/** A message body longer than this reaches the model cut, with a note saying so. */
const maxBodyChars = 20_000;

const Id = z.int().positive();
const Ids = z.array(Id).min(1).max(maxIds).describe('Message ids, as search_mail returns them');
const LabelName = z.string().trim().min(1).max(64);

const SearchArgs = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('Full-text query; from:, to:, subject:, body: filter a field'),
  limit: z.int().min(1).max(50).default(20),
});
const ThreadArgs = z.object({ threadId: Id.describe('A threadId from search_mail') });
const MarkReadArgs = z.object({
  ids: Ids,
  read: z.boolean().default(true).describe('false marks them unread'),
});
const LabelArgs = z
  .object({
    ids: Ids,
    add: z.array(LabelName).max(20).default([]),
    remove: z.array(LabelName).max(20).default([]),
  })
  .refine((a) => a.add.length + a.remove.length > 0, {
    message: 'Give at least one label to add or remove.',
  });
const NoArgs = z.object({}).strict();
const MoveArgs = z.object({ ids: Ids });
const MoveToFolderArgs = z.object({ ids: Ids, folder: z.string().trim().min(1).max(200) });
const MailArgs = z.object({
  to: z.array(MailAddress).min(1).max(50),
  cc: z.array(MailAddress).max(50).default([]),
  // SECURITY: a subject is one header line; one with a line break would show as two lines on a card (issue 27).
  subject: z
    .string()
    .max(998)
    .refine((s) => !/[\r\n\u2028\u2029\u0085]/.test(s), {
      message: 'A subject is one line: it cannot hold a line break.',
    }),
  body: z.string().max(100_000),
  inReplyTo: Id.optional().describe('The id of the message this answers'),
});

const iso = (ms: number) => new Date(ms).toISOString();
const clean = (text: string) => stripHiddenText(text).text;
const json = (value: unknown) => ({ output: JSON.stringify(value) });

type MessageForModel = {
  id: number;
  from: { name: string; address: string };
  date: number;
  subject: string;
  text: string;
  html?: string | null;
  /** What Skimmer saw before you trust the sender (DESIGN §11, "Warnings"); none when left out. */
  warnings?: readonly MessageWarning[];
};

/**
 * A message as any model may read it: headers and body, hidden text removed (DESIGN §8: text the HTML hides
 * from the reader — display:none, zero size, white on white — and invisible characters never reach a
 * model), cut at `maxBodyChars`. Still the sender's words: callers keep it in an untrusted place.
 */
export function mailText(m: MessageForModel): {
  text: string;
  suspect: boolean;
  hiddenHtmlRemoved: boolean;
  hiddenCharsRemoved: boolean;
  cut: boolean;
} {
  const from = m.from.name ? `${m.from.name} <${m.from.address}>` : m.from.address;
  // The text body was made from the HTML, so the hidden sentences are cut out of it.
  const hiddenHtml = m.html ? removeHidden(m.text, hiddenHtmlText(m.html)) : { text: m.text, removed: false };
  const cut = hiddenHtml.text.length > maxBodyChars;
  const body = cut ? hiddenHtml.text.slice(0, maxBodyChars) : hiddenHtml.text;
  const head = `From: ${from}\nDate: ${iso(m.date)}\nSubject: ${m.subject}\n`;
  const raw = `${head}\n${body}`;
  // Skimmer's own warnings go after the header lines, so a summary or a drafted reply can pass them on; they sit
  // inside the untrusted block with the rest, as what is known about the message, not as instructions.
  const warned = (m.warnings ?? [])
    .map((w) => `Skimmer warning (${w.kind}): ${warningForModel(w)}\n`)
    .join('');
  const stripped = stripHiddenText(`${head}${warned}\n${body}`);
  return {
    text: stripped.text,
    // The flag looks at everything the sender wrote, hidden parts included (not at Skimmer's warnings).
    suspect: suspectInjection(`${raw}\n${m.text}`).suspect,
    hiddenHtmlRemoved: hiddenHtml.removed,
    hiddenCharsRemoved: stripped.removed,
    cut,
  };
}

/** One message as the chat model sees it: the whole of `mailText` inside one untrusted block. */
export function messageBlock(m: MessageForModel): WrappedUntrusted {
  const t = mailText(m);
  const notes = [
    ...(t.hiddenHtmlRemoved ? [`(Text hidden in the HTML of message ${m.id} was removed.)`] : []),
    ...(t.hiddenCharsRemoved ? [`(Hidden characters were removed from message ${m.id}.)`] : []),
    ...(t.cut ? [`(Message ${m.id} is longer than ${maxBodyChars} characters; the rest was left out.)`] : []),
  ];
  return WrappedUntrusted.block(`message:${m.id}`, t.text, t.suspect, notes);
}

// SECURITY: the person's banner quotes the hidden line; the model must not get back the text that was hidden
// from it (DESIGN §8), so its copy of that warning says only what was found.
function warningForModel(w: MessageWarning): string {
  return w.kind === 'hidden-text'
    ? 'the HTML or the text of this message hides words aimed at an AI assistant; they were removed.'
    : w.text;
}

// Removes each hidden sentence wherever it stands in the text, whatever the whitespace between its words.
function removeHidden(text: string, hidden: readonly string[]): { text: string; removed: boolean } {
  let out = text;
  for (const h of hidden) {
    const words = h.split(/\s+/).filter((w) => w.length > 0);
    if (words.length === 0) continue;
    const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'g');
    out = out.replace(pattern, '');
  }
  return { text: out, removed: out !== text };
}

/** The mail services the tools act through: the app's own (app.ts builds them once), never a copy of their own. */
export type ToolMail = {
  db: Db;
  actions: ReturnType<typeof prepareMailActions>;
  outbox: ReturnType<typeof prepareOutbox>;
};

/**
 * The tools, built once by the app and shared by every run of the assistant and `skimmer mcp` (issue 30: one
 * outbox, with the app's places, not one per run). `reads` (reads/reads.ts) answer search_mail and read_thread:
 * in the long-running app those of its read thread, so a search or a long thread a model asks for never holds
 * the thread that answers the bridge; in a command, the same reads on this thread.
 */
export function mailTools(mail: ToolMail, reads: SomeAssistantReads<'search' | 'thread'>): AnyTool[] {
  const { db, actions, outbox } = mail;
  const previews = prepareMailPreviews(db);
  const isTrashTarget = prepareTrashTarget(db);

  const searchMail: Tool<z.infer<typeof SearchArgs>> = {
    name: 'search_mail',
    description:
      'Searches stored mail. Returns up to `limit` hits as JSON: id, threadId, subject, from, date, snippet. ' +
      'Read a whole conversation with read_thread.',
    schema: SearchArgs,
    effect: 'read',
    async run({ query, limit }) {
      const hits = (await reads.search(query, limit)).map((h) => ({
        id: h.id,
        threadId: h.threadId,
        subject: clean(h.subject),
        from: clean(h.from),
        date: iso(h.date),
        snippet: clean(h.snippet),
      }));
      // Subjects, senders and snippets come from the mail itself.
      return { output: JSON.stringify(hits), untrusted: true };
    },
  };

  const readThread: Tool<z.infer<typeof ThreadArgs>> = {
    name: 'read_thread',
    description: 'Reads every message of a thread, oldest first. Each message comes as an untrusted block.',
    schema: ThreadArgs,
    effect: 'read',
    async run({ threadId }) {
      const thread = await reads.thread(threadId);
      if (!thread) throw new Error(`There is no thread with id ${threadId}.`);
      return { output: WrappedUntrusted.join(thread.messages.map(messageBlock)), untrusted: true };
    },
  };

  const markRead: Tool<z.infer<typeof MarkReadArgs>> = {
    name: 'mark_read',
    description: 'Marks messages read (or unread with read: false). The user can undo it.',
    schema: MarkReadArgs,
    effect: 'write',
    preview: previews.markRead,
    run: async ({ ids, read }) => json(actions.markRead(ids, read)),
  };

  const listLabels: Tool<z.infer<typeof NoArgs>> = {
    name: 'list_labels',
    description: 'Lists the labels with how many messages carry each, as JSON.',
    schema: NoArgs,
    effect: 'read',
    run: async () => json(actions.labels.list().map((l) => ({ name: l.name, count: l.count }))),
  };

  const labelMessages: Tool<z.infer<typeof LabelArgs>> = {
    name: 'label_messages',
    description:
      'Adds and removes labels on messages; a new label name creates the label. The user can undo it.',
    schema: LabelArgs,
    effect: 'write',
    preview: previews.label,
    run: async ({ ids, add, remove }) => json(actions.label(ids, add, remove)),
  };

  const archive: Tool<z.infer<typeof MoveArgs>> = {
    name: 'archive',
    description: 'Moves messages to the Archive folder. The user can undo it.',
    schema: MoveArgs,
    effect: 'write',
    preview: previews.move((n) => `Archive ${n}`),
    run: async ({ ids }) => json(actions.moveToSpecial(ids, 'archive')),
  };

  const moveToFolder: Tool<z.infer<typeof MoveToFolderArgs>> = {
    name: 'move_to_folder',
    description:
      'Moves messages to an existing folder, named as the user sees it. The user can undo it. A move into ' +
      'Trash or Spam always asks the user first.',
    schema: MoveToFolderArgs,
    effect: 'write',
    // SECURITY: a move into a Trash or Spam folder takes mail out of sight as `trash` does, so it is gated as a
    // delete: it always asks, whatever grant or policy covers moves (issue 27).
    effectOf: ({ folder }) => (isTrashTarget(folder) ? 'delete' : 'write'),
    preview: previews.moveToFolder,
    run: async ({ ids, folder }) => json(actions.moveToFolder(ids, folder)),
  };

  const trash: Tool<z.infer<typeof MoveArgs>> = {
    name: 'trash',
    description: 'Moves messages to the Trash folder. Always asks the user first; the user can undo it.',
    schema: MoveArgs,
    effect: 'delete',
    preview: previews.move((n) => `Move ${n} to Trash`),
    run: async ({ ids }) => json(actions.moveToSpecial(ids, 'trash')),
  };

  const createDraft: Tool<z.infer<typeof MailArgs>> = {
    name: 'create_draft',
    description: 'Saves a draft the user can edit and send. Nothing is sent. The user can undo it.',
    schema: MailArgs,
    effect: 'write',
    preview: previews.mail('Save a draft'),
    run: async ({ to, cc, subject, body, inReplyTo }) =>
      json({ draftId: actions.createDraft({ to, cc, subject, body, inReplyTo: inReplyTo ?? null }).id }),
  };

  const sendMail: Tool<z.infer<typeof MailArgs>> = {
    name: 'send_mail',
    description: 'Sends a message. Always asks the user first.',
    schema: MailArgs,
    effect: 'send',
    preview: previews.mail('Send'),
    async run({ to, cc, subject, body, inReplyTo }) {
      // Queued, not sent: it goes out after the undo window (mail/send/outbox.ts), from the account of the message
      // it answers. Never report a send that did not happen.
      const account = outbox.senderFor(inReplyTo ?? null);
      const item = outbox.queue(account, { to, cc, subject, body, inReplyTo: inReplyTo ?? null });
      return json({
        queued: item.id,
        sendsAt: iso(item.sendAfter),
        note: `It goes out in ${undoWindowText} unless the user presses Undo, which turns it into a draft they can edit.`,
      });
    },
  };

  return [
    searchMail,
    readThread,
    markRead,
    listLabels,
    labelMessages,
    archive,
    moveToFolder,
    trash,
    createDraft,
    sendMail,
  ];
}
