// `skimmer draft new|reply|forward|list|show|send|discard`: the drafts, through the `draft:*` channels the app's
// composer uses, replies and forwards made by shared/compose with your addresses (DESIGN §11, §13). `send`
// puts the draft in the outbox as the app's Send does, waits out the undo window, then sends what is due the
// way the app's sender does (a one-shot command has no sender running beside it). `--attach` sends each file
// through draft:attachStart/attachChunk, as the composer does with a file the user picked.
import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  attachmentChunkBytes,
  channels,
  type DraftDetail,
  maxAttachmentBytes,
  type StreamEvent,
} from '../../shared/contract/index.ts';
import { parseMailbox } from '../../shared/mail-address.ts';
import type { App } from '../app.ts';
import { FileRefusal, readUserFile } from '../files/safe-open.ts';
import { bridgeCall } from './bridge-call.ts';
import type { Command, Out } from './command.ts';
import { printFailure, UsageError } from './failures.ts';
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

// The From with the name it goes out with (identity:list), as `{name?, address}`.
async function fromOf(app: App, d: DraftDetail, io: Out): Promise<{ name?: string; address: string } | null> {
  if (d.from === null) return null;
  const r = await bridgeCall(app, 'identity:list', {}, io);
  const list = r.ok ? channels['identity:list'].response.parse(r.value) : [];
  const name = list.find((i) => i.address === d.from?.toLowerCase())?.name;
  return name ? { name, address: d.from } : { address: d.from };
}

const asJson = (d: DraftDetail, from: { name?: string; address: string } | null) => ({
  id: d.id,
  from,
  to: d.to.map((address) => ({ address })),
  cc: d.cc.map((address) => ({ address })),
  bcc: d.bcc.map((address) => ({ address })),
  subject: d.subject,
  body: d.body,
  inReplyTo: d.inReplyToHeader,
  references: d.references,
  attachments: d.attachments.map((a) => ({ name: a.name, size: a.size })),
});

async function printDraft(app: App, io: Out, values: Values, d: DraftDetail): Promise<void> {
  if (values.json) {
    io.out(JSON.stringify(asJson(d, await fromOf(app, d, io))));
    return;
  }
  io.out(`Draft ${d.id}`);
  io.out(`From: ${d.from ?? '(no account can send yet)'}`);
  io.out(`To: ${d.to.join(', ')}`);
  if (d.cc.length > 0) io.out(`Cc: ${d.cc.join(', ')}`);
  if (d.bcc.length > 0) io.out(`Bcc: ${d.bcc.join(', ')}`);
  io.out(`Subject: ${d.subject}`);
  if (d.inReplyToHeader) io.out(`In-Reply-To: ${d.inReplyToHeader}`);
  for (const a of d.attachments) io.out(`Attached: ${a.name} (${a.size} bytes)`);
  io.out('');
  io.out(d.body);
}

// Each --attach file, read under the rule for every file the user names (DESIGN §13), before the draft is made.
async function attachments(app: App, paths: readonly string[]): Promise<{ name: string; content: Buffer }[]> {
  const read: { name: string; content: Buffer }[] = [];
  for (const path of paths) {
    try {
      read.push({ name: basename(path), content: await readUserFile(path, app.places, maxAttachmentBytes) });
    } catch (e) {
      if (e instanceof FileRefusal)
        throw new UsageError(`${basename(path)} cannot be attached: ${e.message}`);
      throw e;
    }
  }
  return read;
}

// One file through draft:attachStart and draft:attachChunk, in order; false when the bridge refused it.
async function attach(app: App, draftId: number, file: { name: string; content: Buffer }, io: Out) {
  const start = await bridgeCall(
    app,
    'draft:attachStart',
    { draftId, name: file.name, contentType: '', size: file.content.length },
    io,
  );
  if (!start.ok) return start;
  const { uploadId } = channels['draft:attachStart'].response.parse(start.value);
  let offset = 0;
  do {
    const data = file.content.subarray(offset, offset + attachmentChunkBytes);
    const r = await bridgeCall(
      app,
      'draft:attachChunk',
      { uploadId, offset, data: data.toString('base64') },
      io,
    );
    if (!r.ok) return r;
    offset += data.length;
  } while (offset < file.content.length);
  return { ok: true as const };
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

// `draft reply ID --model M`: the model drafts the reply from the thread (draft:aiReply, as the reader's "Draft
// reply"); the draft is printed with its citations and the facts the thread does not hold. Ctrl-C stops it.
async function draftedReply(app: App, io: Out, values: Values, message: number, signal?: AbortSignal) {
  if (values['body-file'] !== undefined)
    throw new UsageError('--body-file and --model do not go together: the model writes the text.');
  const request = {
    message,
    all: values.all === true,
    model: values.model,
    ...(values.instructions !== undefined ? { instructions: values.instructions } : {}),
  };
  const started = await bridgeCall(app, 'draft:aiReply', request, io);
  if (!started.ok) return started.exitCode;
  const { streamId } = channels['draft:aiReply'].response.parse(started.value);
  type End = Extract<StreamEvent, { type: 'draft_reply_done' | 'error' }>;
  const end = await new Promise<End>((resolve) => {
    const off = app.streams.listen((m) => {
      const e = m.event;
      if (m.streamId !== streamId || (e.type !== 'draft_reply_done' && e.type !== 'error')) return;
      off();
      signal?.removeEventListener('abort', stop);
      resolve(e);
    });
    const stop = () => app.streams.cancel(streamId);
    signal?.addEventListener('abort', stop, { once: true });
  });
  if (end.type === 'error') {
    printFailure(io, values, end.error);
    return end.error.code === 'invalid_request' ? 2 : 1;
  }
  const { draft, citations, unverified, cited, note } = end.result;
  if (values.json) {
    io.out(
      JSON.stringify({
        ...asJson(draft, await fromOf(app, draft, io)),
        cited,
        citations: citations.map((c) => ({ messageId: c.messageId, title: c.title })),
        unverified,
        note,
      }),
    );
    return 0;
  }
  await printDraft(app, io, values, draft);
  io.out('');
  io.out(
    cited
      ? `Cited: ${citations.map((c) => `message ${c.messageId} (${c.title})`).join('; ')} (checked to exist, not checked to be true)`
      : 'Uncited draft: the model cited no message of the thread.',
  );
  for (const u of unverified) io.out(`Unverified: ${u.text}: ${u.reason}`);
  if (note) io.out(note);
  return 0;
}

export const draftCommand: Command = async (app, args, values, io, signal) => {
  const [sub, word, ...rest] = args;
  if (sub === 'new' && word === undefined) {
    const to = addresses(values.to);
    const cc = addresses(values.cc);
    const bcc = addresses(values.bcc);
    const [fromAddress] = values.from === undefined ? [null] : addresses([values.from]);
    const files = await attachments(app, values.attach ?? []);
    const r = await bridgeCall(
      app,
      'draft:new',
      {
        kind: 'blank',
        fromAddress: fromAddress ?? null,
        to,
        cc,
        bcc,
        subject: values.subject ?? '',
        body: await bodyFrom(app, values['body-file']),
      },
      io,
    );
    if (!r.ok) return r.exitCode;
    const made = channels['draft:new'].response.parse(r.value);
    for (const file of files) {
      const a = await attach(app, made.id, file, io);
      if (!a.ok) {
        // All or nothing: a draft missing a file the user named would go out without it.
        await bridgeCall(app, 'draft:discard', { id: made.id }, io);
        return a.exitCode;
      }
    }
    const d = files.length > 0 ? await show(app, made.id, io) : made;
    if (typeof d === 'number') return d;
    await printDraft(app, io, values, d);
    return 0;
  }
  if (sub === 'reply' && word !== undefined && rest.length === 0 && values.model !== undefined) {
    return draftedReply(app, io, values, idOf(word), signal);
  }
  if ((sub === 'reply' || sub === 'forward') && word !== undefined && rest.length === 0) {
    if (values.instructions !== undefined)
      throw new UsageError('--instructions go with --model SERVICE/MODEL.');
    const message = idOf(word);
    const to = sub === 'forward' ? addresses(values.to) : [];
    if (sub === 'forward' && to.length === 0) throw new UsageError('draft forward needs --to ADDRESS.');
    const kind = sub === 'forward' ? 'forward' : values.all ? 'all' : 'reply';
    const body = await bodyFrom(app, values['body-file']);
    const r = await bridgeCall(app, 'draft:new', { kind, message, to, body }, io);
    if (!r.ok) return r.exitCode;
    await printDraft(app, io, values, channels['draft:new'].response.parse(r.value));
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
        io.out(JSON.stringify(asJson(detail, await fromOf(app, detail, io))));
      } else io.out(`${d.id}  ${d.to.join(', ') || '(no recipients)'}  ${d.subject || '(no subject)'}`);
    }
    if (!values.json && list.length === 0) io.out('No drafts.');
    return 0;
  }
  if (sub === 'show' && word !== undefined && rest.length === 0) {
    const d = await show(app, idOf(word), io);
    if (typeof d === 'number') return d;
    await printDraft(app, io, values, d);
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
