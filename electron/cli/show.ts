// `skimmer show MESSAGE_ID`: one stored message for scripts and for reading in a terminal — its headers, its
// text, its attachments (names, types, sizes: the bytes stay at their source) and Skimmer's warnings about it
// (DESIGN §11, "Warnings"). A message stored before the warnings existed is checked here first.
import type { MessageView } from '../../shared/contract/index.ts';
import { MailError } from '../mail/mail-error.ts';
import { prepareQueries } from '../mail/store/queries.ts';
import type { Command } from './command.ts';
import { failureOf, printFailure, UsageError } from './failures.ts';
import { usageSentence } from './flags.ts';

const address = (a: { name: string; address: string }) => (a.name ? `${a.name} <${a.address}>` : a.address);

/** What `--json` prints: the message without its HTML (a script that wants it reads the source). */
function shown(m: MessageView) {
  return {
    id: m.id,
    messageId: m.messageId,
    threadId: m.threadId,
    folderId: m.folderId,
    date: m.date === 0 ? null : new Date(m.date).toISOString(),
    from: m.from,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    text: m.text,
    hasHtml: m.html !== null,
    attachments: m.attachments,
    unread: m.unread,
    starred: m.starred,
    warnings: m.warnings,
  };
}

// SECURITY: the mail is the sender's text; an escape sequence in it would move the cursor, retitle the window or
// rewrite what the terminal shows above it. Control characters other than tab and line end are shown as `?`.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const forTerminal = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');

export const showCommand: Command = async (app, args, values, io) => {
  const [word, ...rest] = args;
  if (word === undefined || rest.length > 0) throw new UsageError(usageSentence('show'));
  const id = Number(word);
  if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError(`"${word}" is not an id: give a number.`);
  const m = prepareQueries(app.db).message(id);
  if (!m) {
    const failure = failureOf(new MailError('not_found', `There is no message with id ${id}.`));
    if (failure) printFailure(io, values, failure);
    return 1;
  }
  if (values.json) {
    io.out(JSON.stringify(shown(m)));
    return 0;
  }
  const lines = [
    `From: ${address(m.from)}`,
    ...(m.to.length > 0 ? [`To: ${m.to.map(address).join(', ')}`] : []),
    ...(m.cc.length > 0 ? [`Cc: ${m.cc.map(address).join(', ')}`] : []),
    `Date: ${m.date === 0 ? '(no date)' : new Date(m.date).toISOString()}`,
    `Subject: ${m.subject}`,
    ...m.attachments.map((a) => `Attachment: ${a.name || '(no name)'} (${a.contentType}, ${a.size} bytes)`),
    ...m.warnings.map((w) => `Warning (${w.kind}): ${w.text}`),
    '',
    m.text,
  ];
  for (const line of lines) io.out(forTerminal(line));
  return 0;
};
