// `skimmer attachment list MESSAGE_ID` and `skimmer attachment save MESSAGE_ID [INDEX|--all] [--to DIR]` (issue
// 29 §1): a message's attachments, numbered from 1, and their bytes written into a folder, read from where the
// message lives (mail/attachments/attachment-bytes.ts), identical to the parts the sender attached. A name from
// mail never picks the path (shared/safe-file-name.ts); what is written is printed, the path of each file.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { App } from '../app.ts';
import { shellPlaces } from '../files/safe-open.ts';
import { prepareAttachmentBytes } from '../mail/attachments/attachment-bytes.ts';
import { saveInto } from '../mail/attachments/save.ts';
import type { Command, Out } from './command.ts';
import { failureOf, printFailure, UsageError } from './failures.ts';
import { familyUsageSentence, usageSentence, type Values } from './flags.ts';

// SECURITY: a name is the sender's text; control characters would move the terminal's cursor (as show.ts), and a
// bidirectional override would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
const forTerminal = (text: string) =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '?');

function messageId(word: string | undefined, command: 'attachment list' | 'attachment save'): number {
  if (word === undefined) throw new UsageError(usageSentence(command));
  const id = Number(word);
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new UsageError(`"${word}" is not a message id: give a number.`);
  return id;
}

// SECURITY: the original's file is read under the shell's places, as `skimmer import` read it: the person
// running the command could read it with their own permissions anyway; never the data folder, never /proc.
const reader = (app: App) =>
  prepareAttachmentBytes(app.db, { accounts: app.accounts, places: shellPlaces({ dataDir: app.dataDir }) });

async function failed(io: Out, values: Values, e: unknown): Promise<number> {
  const failure = failureOf(e);
  if (!failure) throw e;
  printFailure(io, values, failure);
  return 1;
}

export const attachmentCommand: Command = async (app, args, values, io) => {
  const [sub, ...rest] = args;
  if (sub === 'list') return list(app, rest, values, io);
  if (sub === 'save') return save(app, rest, values, io);
  throw new UsageError(familyUsageSentence('attachment'));
};

async function list(app: App, args: string[], values: Values, io: Out): Promise<number> {
  if (args.length !== 1) throw new UsageError(usageSentence('attachment list'));
  const id = messageId(args[0], 'attachment list');
  let all: ReturnType<ReturnType<typeof reader>['list']>;
  try {
    all = reader(app).list(id);
  } catch (e) {
    return failed(io, values, e);
  }
  for (const a of all) {
    const index = a.index + 1;
    if (values.json)
      io.out(JSON.stringify({ index, name: a.name, contentType: a.contentType, size: a.size }));
    else {
      const fields = [String(index), a.name || '(no name)', a.contentType, `${a.size} bytes`];
      io.out(fields.map(forTerminal).join('\t'));
    }
  }
  if (all.length === 0 && !values.json) io.err(`Message ${id} has no attachments.`);
  return 0;
}

async function save(app: App, args: string[], values: Values, io: Out): Promise<number> {
  if (args.length < 1 || args.length > 2 || (args.length === 2 && values.all)) {
    throw new UsageError(usageSentence('attachment save'));
  }
  const id = messageId(args[0], 'attachment save');
  const word = args[1];
  const index = word === undefined ? undefined : Number(word);
  if (word !== undefined && (!Number.isSafeInteger(index) || (index as number) <= 0)) {
    throw new UsageError(
      `"${word}" is not an attachment number: give 1 for the first (attachment list ${id}).`,
    );
  }
  // `--to` is draft new's list of addresses too, so its type is either; here it is one folder.
  const to: string | string[] | undefined = values.to;
  const dir = resolve((Array.isArray(to) ? to[0] : to) ?? '.');
  const files = reader(app);
  try {
    const count = files.list(id).length;
    let indexes: number[];
    if (index !== undefined) indexes = [index - 1];
    else if (values.all || count === 1) indexes = [...Array(count).keys()];
    else if (count === 0) indexes = [0];
    else {
      throw new UsageError(
        `Message ${id} has ${count} attachments: give a number from 1 to ${count}, or --all (attachment list ${id}).`,
      );
    }
    for (const a of await files.read(id, indexes)) {
      const path = await saveInto(dir, a.name || `attachment-${a.index + 1}`, a.content).catch(
        (e: NodeJS.ErrnoException) => {
          throw new UsageError(
            `Cannot write into ${dir}: ${e.code === 'ENOTDIR' ? 'it is not a folder' : e.message}.`,
          );
        },
      );
      const sha256 = createHash('sha256').update(a.content).digest('hex');
      if (values.json)
        io.out(JSON.stringify({ index: a.index + 1, name: a.name, path, size: a.content.length, sha256 }));
      else io.out(forTerminal(path));
    }
  } catch (e) {
    if (e instanceof UsageError) throw e;
    return failed(io, values, e);
  }
  return 0;
}
