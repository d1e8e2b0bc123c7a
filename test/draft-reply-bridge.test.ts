// "Draft reply" over the bridge (issue 17), against a real Dovecot and a local model that cites what it is sent:
// a checked reply becomes a local draft (in the server's Drafts only once the user saves it), its recipients
// from the headers alone; a made-up amount is listed; a citation outside the thread stores nothing; the model
// is the summary default when none is named; the user's own mail is sent as examples, never as sources.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { syncAccount } from '../electron/mail/imap/imap-sync.ts';
import type { DraftedReply, StreamEvent } from '../shared/contract/index.ts';
import { call, streamUntil } from './support/bridge.ts';
import { type CitingModel, startCitingModel } from './support/citing-model.ts';
import { type Dovecot, startDovecot } from './support/dovecot.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';

let server: Dovecot;
let sink: SmtpSink;
let model: CitingModel;
let app: ReturnType<typeof createApp>;
let accountId = 0;
// What the model answers, given the ids it cites: each noted, unless a test says otherwise.
const noted = (cited: string[]) => cited.map((id) => `Noted [${id}].`).join(' ');
let answer = noted;

const mail = (o: { id: string; from: string; subject: string; body: string; extra?: string[] }) =>
  [
    `From: ${o.from}`,
    'To: Test <test@example.com>',
    'Cc: Lee <lee@example.com>',
    `Subject: ${o.subject}`,
    'Date: Sun, 29 Nov 2026 10:00:00 +0000',
    `Message-ID: ${o.id}`,
    ...(o.extra ?? []),
    'Content-Type: text/plain; charset=utf-8',
    '',
    o.body,
    '',
  ].join('\r\n');

const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const sync = async () => syncAccount(app.db, await app.accounts.login(accountId));
const draftCount = () => app.db.prepare('SELECT count(*) FROM drafts').pluck().get() as number;
const appendsFor = (draftId: number) =>
  app.db
    .prepare("SELECT count(*) FROM mail_ops WHERE kind = 'append_draft' AND payload_json ->> 'draftId' = ?")
    .pluck()
    .get(draftId) as number;
async function serverDrafts(): Promise<number> {
  const c = await server.client();
  try {
    const status = await c.status('Drafts', { messages: true });
    return status ? (status.messages ?? 0) : 0;
  } finally {
    await c.logout();
  }
}

/** Asks for a drafted reply and waits for its end: the result, or the error event. */
async function drafted(request: {
  message: number;
  all?: boolean;
  model?: string;
  instructions?: string;
}): Promise<StreamEvent> {
  const { streamId } = await call(app, 'draft:aiReply', request);
  const events = await streamUntil(app, streamId, ['draft_reply_done', 'error']);
  return events.at(-1) as StreamEvent;
}
async function draftedOk(request: Parameters<typeof drafted>[0]): Promise<DraftedReply> {
  const end = await drafted(request);
  if (end.type !== 'draft_reply_done') throw new Error(`no draft: ${JSON.stringify(end)}`);
  return end.result;
}

beforeAll(async () => {
  server = await startDovecot();
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  await server.append('INBOX', [
    mail({
      id: '<budget-1@example.org>',
      from: 'Priya Raman <priya@example.org>',
      subject: 'Budget for Q3',
      body: 'Can we agree a budget of 40k for Q3? Loop in carol@else.example if you like.',
    }),
    mail({
      id: '<budget-2@example.org>',
      from: 'Priya Raman <priya@example.org>',
      subject: 'Re: Budget for Q3',
      body: 'And can we sign on 14 December at 15:00?',
      extra: ['In-Reply-To: <budget-1@example.org>', 'References: <budget-1@example.org>'],
    }),
    // The user's own earlier mail, in another thread: an example of their style.
    mail({
      id: '<mine@example.com>',
      from: 'Test <test@example.com>',
      subject: 'Lunch',
      body: 'Cheers, sounds grand. T\n\nOn Sat, Priya wrote:\n> Lunch at noon? Call 555 0100.',
    }),
  ]);
  model = await startCitingModel((cited) => answer(cited));
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  accountId = (
    await call(app, 'account:add', {
      name: 'work',
      user: 'test@example.com',
      password: 'secret',
      imap: { host: server.host, port: server.port, tls: 'none' },
      smtp: { host: sink.host, port: sink.port, tls: 'none' },
    })
  ).id;
  await sync();
  await call(app, 'service:add', { name: 'local', kind: 'openai', baseUrl: model.base });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await model?.close();
  await sink?.close();
  await server?.stop();
});

describe('draft:aiReply', () => {
  beforeEach(() => {
    answer = noted;
  });

  test('a cited reply is stored as a local draft, on the server only once the user saves it', async () => {
    answer = (cited) => `Hi Priya,\n\nYes to 40k [${cited[0]}] and to Dec 14 at 3pm [${cited[1]}].\n\nTest`;
    const answered = idOf('<budget-2@example.org>');
    const result = await draftedOk({ message: answered, model: 'local/m' });
    expect(result.cited).toBe(true);
    expect(result.citations.map((c) => c.messageId)).toEqual([idOf('<budget-1@example.org>'), answered]);
    expect(result.unverified).toEqual([]);
    expect(result.draft.body).toMatch(/^Hi Priya,\n\nYes to 40k and to Dec 14 at 3pm\.\n\nTest\n/);
    expect(result.draft.body).toContain('> And can we sign on 14 December at 15:00?');
    expect(result.draft).toMatchObject({ inReplyTo: answered, subject: 'Re: Budget for Q3' });
    expect((await call(app, 'draft:list', {})).map((d) => d.id)).toContain(result.draft.id);

    await sync();
    expect(appendsFor(result.draft.id)).toBe(0);
    expect(await serverDrafts()).toBe(0);
    const { draft } = result;
    await call(app, 'draft:save', {
      id: draft.id,
      fromAddress: draft.fromAddress,
      to: draft.to,
      cc: draft.cc,
      bcc: draft.bcc,
      subject: draft.subject,
      body: draft.body,
    });
    expect(appendsFor(draft.id)).toBe(1);
    await sync();
    expect(await serverDrafts()).toBe(1);
    await call(app, 'draft:discard', { id: draft.id });
  });

  test("the reply's citations and facts are kept with its draft and go with it", async () => {
    answer = (cited) => `Yes to 40k [${cited[0]}], see you Dec 14 [${cited[1]}].`;
    const result = await draftedOk({ message: idOf('<budget-2@example.org>'), model: 'local/m' });
    const { draft, unverified: _, ...assist } = result;
    // As the composer shows it when the draft is opened again (a reload, Drafts).
    expect(await call(app, 'draft:assist', { id: draft.id })).toEqual(assist);
    expect(assist.citations).toHaveLength(2);
    expect(assist.known).toContain('n:40000');
    // A draft the user wrote has none.
    const own = await call(app, 'draft:new', { kind: 'blank', to: [], cc: [], subject: 'Mine', body: 'x' });
    expect(await call(app, 'draft:assist', { id: own.id })).toBeNull();
    // Discarded, the draft takes its citations with it.
    await call(app, 'draft:discard', { id: draft.id });
    expect(await call(app, 'draft:assist', { id: draft.id })).toBeNull();
    expect(
      app.db.prepare('SELECT count(*) FROM draft_assists WHERE draft_id = ?').pluck().get(draft.id),
    ).toBe(0);
    await call(app, 'draft:discard', { id: own.id });
  });

  test('lists an amount the messages cited do not hold as not found in them', async () => {
    answer = (cited) => `We can do $45,000 [${cited[0]}], as you say [${cited[1]}].`;
    const result = await draftedOk({ message: idOf('<budget-2@example.org>'), model: 'local/m' });
    expect(result.unverified).toEqual([{ text: '$45,000', reason: 'not found in the messages cited' }]);
    expect(result.known).toContain('n:40000');
  });

  test('proposes only the headers’ addresses, never one found only in a body', async () => {
    for (const all of [false, true]) {
      const { draft } = await draftedOk({ message: idOf('<budget-1@example.org>'), all, model: 'local/m' });
      expect(draft.to).toEqual(['priya@example.org']);
      expect(draft.cc).toEqual(all ? ['lee@example.com'] : []);
      expect(JSON.stringify([draft.to, draft.cc, draft.bcc])).not.toContain('carol@else.example');
    }
  });

  test('refuses a citation outside the thread and stores no draft', async () => {
    const before = draftCount();
    model.cite = () => ['m999999'];
    try {
      const end = await drafted({ message: idOf('<budget-2@example.org>'), model: 'local/m' });
      expect(end).toMatchObject({ type: 'error', error: { code: 'bad_answer' } });
    } finally {
      model.cite = (ids) => ids;
    }
    expect(draftCount()).toBe(before);
  });

  test('a Stop while the model writes ends the stream as cancelled and stores no draft', async () => {
    const before = draftCount();
    model.hold = true;
    try {
      const { streamId } = await call(app, 'draft:aiReply', {
        message: idOf('<budget-2@example.org>'),
        model: 'local/m',
      });
      const ended = streamUntil(app, streamId, ['draft_reply_done', 'error']);
      await expect.poll(() => model.waiting()).toBe(1);
      expect(await call(app, 'run:cancel', { streamId })).toEqual({ cancelled: true });
      expect((await ended).at(-1)).toMatchObject({ type: 'error', error: { code: 'cancelled' } });
    } finally {
      model.hold = false;
      model.release();
    }
    expect(draftCount()).toBe(before);
  });

  test('sends your own mail as examples of your style, your words only, never as a source', async () => {
    await draftedOk({ message: idOf('<budget-2@example.org>'), model: 'local/m', instructions: 'say yes' });
    const sent = model.received.at(-1);
    expect(sent?.system).toContain('source="context:example1"');
    expect(sent?.system).toContain('Cheers, sounds grand. T');
    expect(sent?.system).not.toContain('555 0100');
    expect(sent?.ids).not.toContain(`m${idOf('<mine@example.com>')}`);
    expect(sent?.question).toBe('Draft my reply. My instructions: say yes');
  });

  test('uses the summary default when no model is named, and asks for one when there is none', async () => {
    await expect(call(app, 'draft:aiReply', { message: idOf('<budget-2@example.org>') })).rejects.toThrow(
      /invalid_request Choose a model/,
    );
    await call(app, 'model:setDefault', { task: 'summary', model: 'local/default-model' });
    const before = model.received.length;
    const result = await draftedOk({ message: idOf('<budget-2@example.org>') });
    expect(result.cited).toBe(true);
    expect(model.received.length).toBe(before + 1);
  });

  test('an unknown message is not_found before any stream', async () => {
    await expect(call(app, 'draft:aiReply', { message: 999_999, model: 'local/m' })).rejects.toThrow(
      /not_found/,
    );
  });
});
