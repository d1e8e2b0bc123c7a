// Outbox changes on the page's watch (issue 5), with a real SMTP server on loopback: whoever queues,
// sends, cancels or dismisses a message (an approved send_mail, the user's Send, another page's Undo), every
// page watching `account:watch` hears an `outbox` event with the message as it now stands, so its outbox
// bar follows without polling. Undo puts the message back in the drafts at once (test/undo-send.test.ts); a
// failed message can be dismissed back to the drafts, as it was written; one still on its way cannot.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { prepareMailActions } from '../electron/mail/store/undo.ts';
import { channels, envelope } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { type OutboxWatch, watchOutbox } from './support/outbox-watch.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';
import { toolText } from './support/tool-text.ts';

let sink: SmtpSink;
let app: App;
let good = 0;
let bad = 0;
// What the watch said of each outbox message, in order, in the current test.
let watch: OutboxWatch;
const states = (id: number) => watch.states(id);
const later = () => Date.now() + undoWindowMs + 1000;

beforeAll(async () => {
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  // Not the background app: the test sends what is due itself, so nothing goes out behind its back.
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  watch = await watchOutbox(app);
  const imap = { host: '127.0.0.1', port: 1, tls: 'none' } as const;
  const smtp = { host: sink.host, port: sink.port, tls: 'none' } as const;
  const base = { user: 'test@example.com', imap, smtp };
  good = (await call(app, 'account:add', { name: 'good', password: 'secret', ...base })).id;
  bad = (await call(app, 'account:add', { name: 'bad', password: 'wrong', ...base })).id;
}, 30_000);

beforeEach(() => watch.clear());

afterAll(async () => {
  await app?.close();
  await sink?.close();
});

const sendMail = async (args: object) => {
  const tool = app.tools.find((t) => t.name === 'send_mail');
  if (!tool) throw new Error('no send_mail');
  const out = await tool.run(tool.schema.parse(args), { signal: new AbortController().signal });
  return JSON.parse(toolText(out)).queued as number;
};
const queueOn = (accountId: number, subject: string) =>
  prepareOutbox(app.db).queue(accountId, {
    to: ['carol@example.org'],
    cc: ['dan@example.org'],
    subject,
    body: `${subject}, body.`,
    inReplyTo: null,
  }).id;

describe('outbox events on the watch', () => {
  test('an approved send_mail is heard queued, then sending, then sent', async () => {
    const id = await sendMail({ to: ['carol@example.org'], subject: 'Lunch', body: 'Noon?' });
    await expect.poll(() => states(id)).toEqual(['queued']);
    expect(watch.heard.get(id)?.[0]).toMatchObject({
      id,
      accountId: good,
      to: ['carol@example.org'],
      subject: 'Lunch',
    });
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(1);
    await expect.poll(() => states(id)).toEqual(['queued', 'sending', 'sent']);
    expect(watch.heard.get(id)?.at(-1)?.sentAt).toEqual(expect.any(Number));
    expect(sink.received.at(-1)?.raw.toString()).toMatch(/Noon\?/);
  });

  test('a send the SMTP server refuses is heard as failed, with the reason', async () => {
    const id = queueOn(bad, 'Refused');
    await prepareOutbox(app.db, later).sendDue(app.accounts);
    await expect.poll(() => states(id)).toEqual(['queued', 'sending', 'failed']);
    expect(watch.heard.get(id)?.at(-1)?.error).toMatch(/refused the user name or password/);
  });

  test("another page's Undo is heard as cancelled, then gone to the drafts", async () => {
    const draft = prepareMailActions(app.db).createDraft({
      to: ['carol@example.org'],
      cc: [],
      subject: 'Second thoughts',
      body: 'Maybe not.',
      inReplyTo: null,
    });
    const { id } = await call(app, 'draft:send', { id: draft.id });
    const { cancelled, draft: back } = await call(app, 'outbox:cancel', { id });
    expect(cancelled).toBe(true);
    await expect.poll(() => states(id)).toEqual(['queued', 'cancelled', 'gone']);
    expect((await call(app, 'draft:list', {})).find((d) => d.id === back)?.subject).toBe('Second thoughts');
    await call(app, 'draft:discard', { id: back ?? 0 });
  });
});

describe('dismissing a message back to the drafts', () => {
  test('a failed send goes back to the drafts as it was written, and leaves the outbox', async () => {
    const id = queueOn(bad, 'Quarterly numbers');
    await prepareOutbox(app.db, later).sendDue(app.accounts);
    expect(prepareOutbox(app.db).get(id)?.state).toBe('failed');
    const { draft } = await call(app, 'outbox:dismiss', { id });
    expect(draft).toMatchObject({
      to: ['carol@example.org'],
      cc: ['dan@example.org'],
      subject: 'Quarterly numbers',
      body: 'Quarterly numbers, body.',
      inReplyTo: null,
    });
    expect((await call(app, 'draft:list', {})).find((d) => d.id === draft.id)).toEqual(draft);
    expect((await call(app, 'outbox:list', {})).map((item) => item.id)).not.toContain(id);
    await expect.poll(() => states(id)).toEqual(['queued', 'sending', 'failed', 'gone']);
  });

  test('a message cancelled before Undo made drafts (an older database) can be dismissed to the drafts too', async () => {
    const id = queueOn(good, 'Cancelled one');
    expect(prepareOutbox(app.db).cancel(id)).toBe(true);
    const { draft } = await call(app, 'outbox:dismiss', { id });
    expect(draft).toMatchObject({ subject: 'Cancelled one', to: ['carol@example.org'] });
  });

  test('a message still waiting to go out is refused, and stays queued', async () => {
    const id = queueOn(good, 'Still waiting');
    const drafts = (await call(app, 'draft:list', {})).length;
    const reply = envelope(channels['outbox:dismiss'].response).parse(
      await callRaw(app, 'outbox:dismiss', { id }),
    );
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'invalid_request', message: expect.stringMatching(/undo the send first/) },
    });
    expect(prepareOutbox(app.db).get(id)?.state).toBe('queued');
    expect(await call(app, 'draft:list', {})).toHaveLength(drafts);
    expect((await call(app, 'outbox:cancel', { id })).cancelled).toBe(true);
  });

  test('a message that is not in the outbox is not found', async () => {
    const reply = await callRaw(app, 'outbox:dismiss', { id: 9999 });
    expect(reply).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
