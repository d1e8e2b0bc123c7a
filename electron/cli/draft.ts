// `skimmer draft new|reply|forward|list|show|send|discard`: the drafts, through the `draft:*` channels the app's
// composer uses, replies and forwards made by shared/compose with your addresses (DESIGN §11, §13). `send`
// puts the draft in the outbox as the app's Send does, waits out the undo window, then sends what is due the
// way the app's sender does (a one-shot command has no sender running beside it).
import { setTimeout as sleep } from 'node:timers/promises';
import { channels, type DraftDetail } from '../../shared/contract/index.ts';
import { addressKey, parseMailbox } from '../../shared/mail-address.ts';
import type { App } from '../app.ts';
import { FileRefusal, readUserFile } from '../files/safe-open.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command, Out } from './command.ts';
import { UsageError } from './failures.ts';
import { familyUsageSentence, type Values } from './flags.ts';
import { readStdin } from './read-stdin.ts';

const maxBodyFileBytes = 1024 * 1024;

// `--body-file F` is a file the user names, read under the rule for every such file (DESIGN §13); `-` is
// standard input.
async function bodyFrom(app: App, path: string | undefined): Promise<string> {
  if (path === undefined) return '';
  if (path === '-') return readStdin();
  try {
    return (await readUserFile(path, app.places, maxBodyFileBytes)).toString('utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    if (e instanceof FileRefusal) throw new UsageError(`The body file cannot be read: ${e.message}`);
    throw e;
  }
}

// Each --to/--cc value is one address or several separated by commas.
function addresses(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) =>
    v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean)
      .map((a) => {
        const address = parseMailbox(a);
        if (!address) throw new UsageError(`"${a}" is not a mail address: give one like name@example.com.`);
        return address;
      }),
  );
}

const asJson = (d: DraftDetail) => ({
  id: d.id,
  from: d.from === null ? null : { address: d.from },
  to: d.to.map((address) => ({ address })),
  cc: d.cc.map((address) => ({ address })),
  // Drafts keep no Bcc and carry no attachments yet (DESIGN §11).
  bcc: [],
  subject: d.subject,
  body: d.body,
  inReplyTo: d.inReplyToHeader,
  references: d.references,
  attachments: [],
});

function printDraft(io: Out, values: Values, d: DraftDetail): void {
  if (values.json) {
    io.out(JSON.stringify(asJson(d)));
    return;
  }
  io.out(`Draft ${d.id}`);
  io.out(`From: ${d.from ?? '(no account can send yet)'}`);
  io.out(`To: ${d.to.join(', ')}`);
  if (d.cc.length > 0) io.out(`Cc: ${d.cc.join(', ')}`);
  io.out(`Subject: ${d.subject}`);
  if (d.inReplyToHeader) io.out(`In-Reply-To: ${d.inReplyToHeader}`);
  io.out('');
  io.out(d.body);
}

async function show(app: App, id: number, io: Out): Promise<DraftDetail | number> {
  const r = await bridgeCall(app, 'draft:show', { id }, io);
  return r.ok ? channels['draft:show'].response.parse(r.value) : r.exitCode;
}

function idOf(word: string): number {
  const id = Number(word);
  if (!Number.isSafeInteger(id) || id <= 0) throw new UsageError(`"${word}" is not an id: give a number.`);
  return id;
}

// The outbox sends what is due once its undo window has passed; waits for this one to be sent or to fail.
async function sendAndWait(app: App, outboxId: number, sendAfter: number, signal?: AbortSignal) {
  for (;;) {
    const wait = sendAfter - Date.now();
    if (wait > 0) await sleep(wait, undefined, { signal });
    await app.outbox.sendDue(app.accounts);
    const item = app.outbox.get(outboxId);
    // Another Skimmer (the app, `serve`) may be sending it right now: it claimed it, so wait for its end.
    if (item && (item.state === 'queued' || item.state === 'sending')) {
      await sleep(200, undefined, { signal });
      continue;
    }
    return item;
  }
}

export const draftCommand: Command = async (app, args, values, io, signal) => {
  const [sub, word, ...rest] = args;
  if (sub === 'new' && word === undefined) {
    if ((values.bcc ?? []).length > 0)
      throw new UsageError('Drafts do not keep Bcc recipients yet: put them in --to or --cc.');
    const to = addresses(values.to);
    const cc = addresses(values.cc);
    const r = await bridgeCall(
      app,
      'draft:new',
      {
        kind: 'blank',
        to,
        cc,
        subject: values.subject ?? '',
        body: await bodyFrom(app, values['body-file']),
      },
      io,
    );
    if (!r.ok) return r.exitCode;
    const d = channels['draft:new'].response.parse(r.value);
    // The outbox sends from the sending account's login; another From cannot be kept yet.
    if (values.from !== undefined && (d.from === null || addressKey(values.from) !== addressKey(d.from))) {
      await bridgeCall(app, 'draft:discard', { id: d.id }, io);
      throw new UsageError(
        d.from === null
          ? 'No account can send mail yet: add a mail account with an SMTP server.'
          : `Drafts are sent from ${d.from}, the sending account's address; another From is not kept yet.`,
      );
    }
    printDraft(io, values, d);
    return 0;
  }
  if ((sub === 'reply' || sub === 'forward') && word !== undefined && rest.length === 0) {
    const message = idOf(word);
    const to = sub === 'forward' ? addresses(values.to) : [];
    if (sub === 'forward' && to.length === 0) throw new UsageError('draft forward needs --to ADDRESS.');
    const kind = sub === 'forward' ? 'forward' : values.all ? 'all' : 'reply';
    const body = await bodyFrom(app, values['body-file']);
    const r = await bridgeCall(app, 'draft:new', { kind, message, to, body }, io);
    if (!r.ok) return r.exitCode;
    printDraft(io, values, channels['draft:new'].response.parse(r.value));
    return 0;
  }
  if (sub === 'list' && word === undefined) {
    const r = await bridgeCall(app, 'draft:list', {}, io);
    if (!r.ok) return r.exitCode;
    const list = channels['draft:list'].response.parse(r.value);
    for (const d of list) {
      if (values.json) {
        const detail = await show(app, d.id, io);
        if (typeof detail === 'number') return detail;
        io.out(JSON.stringify(asJson(detail)));
      } else io.out(`${d.id}  ${d.to.join(', ') || '(no recipients)'}  ${d.subject || '(no subject)'}`);
    }
    if (!values.json && list.length === 0) io.out('No drafts.');
    return 0;
  }
  if (sub === 'show' && word !== undefined && rest.length === 0) {
    const d = await show(app, idOf(word), io);
    if (typeof d === 'number') return d;
    printDraft(io, values, d);
    return 0;
  }
  if (sub === 'discard' && word !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'draft:discard', { id: idOf(word) }, io);
    if (!r.ok) return r.exitCode;
    const { discarded } = channels['draft:discard'].response.parse(r.value);
    if (values.json) io.out(JSON.stringify({ discarded }));
    else if (discarded) io.out(`Discarded draft ${word}.`);
    else io.err(`There is no draft ${word}: see \`skimmer draft list\`.`);
    return discarded ? 0 : 1;
  }
  if (sub === 'send' && word !== undefined && rest.length === 0) {
    const r = await bridgeCall(app, 'draft:send', { id: idOf(word) }, io);
    if (!r.ok) return r.exitCode;
    const queued = channels['draft:send'].response.parse(r.value);
    if (!values.json)
      io.out(`Sending in ${Math.ceil((queued.sendAfter - Date.now()) / 1000)} s (Undo works until then)…`);
    const item = await sendAndWait(app, queued.id, queued.sendAfter, signal);
    if (values.json && item) io.out(JSON.stringify(item));
    if (item?.state === 'sent') {
      if (!values.json) io.out(`Sent to ${item.to.join(', ')}.`);
      return 0;
    }
    if (!values.json)
      io.err(
        item?.state === 'failed'
          ? `The message was not sent: ${item.error ?? 'the SMTP server refused it'}`
          : 'The send was undone: the message is back in the drafts.',
      );
    return 1;
  }
  throw new UsageError(familyUsageSentence('draft'));
};
