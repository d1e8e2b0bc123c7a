// The `invitation:*` channels (issue 29 §2) on a real app, a real SQLite file and a real SMTP server on loopback:
// the event card of each sender's invitation as imported (Google, Outlook, iCloud, Fastmail), what an update and
// a cancellation changed, an answer sent from the invited address through the outbox as an iTIP REPLY, an Undo
// that takes the answer back, the .ics for "Add to calendar", and hostile calendar parts as one sentence each.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { call, callRaw } from './support/bridge.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { eml, tempDir } from './support/temp.ts';

const fixtures = new URL('../fixtures/invitations/', import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), 'utf8');
const senders = ['google', 'outlook', 'icloud', 'fastmail', 'google-update', 'fastmail-cancel', 'hostile'];

let sink: SmtpSink;
let app: App;
const later = () => Date.now() + undoWindowMs + 1000;

const idOf = (messageId: string) =>
  app.db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;
const ids = {
  google: () => idOf('<calendar-7kukuqrf-0@google.com>'),
  update: () => idOf('<calendar-7kukuqrf-1@google.com>'),
  outlook: () => idOf('<DB9PR01MB1234ABCD@DB9PR01MB1234.eurprd01.prod.outlook.com>'),
  icloud: () => idOf('<1A2B3C4D-5E6F-7A8B-9C0D-1E2F3A4B5C6D@icloud.com>'),
  fastmail: () => idOf('<1764590400.1234567@fastmail.com>'),
  cancel: () => idOf('<1764590400.7654321@fastmail.com>'),
  hostile: () => idOf('<hostile@fastmail.com>'),
  crowd: () => idOf('<crowd@x>'),
  plain: () => idOf('<plain@x>'),
  reply: () => idOf('<reply@x>'),
  both: () => idOf('<both@x>'),
};

// One calendar part as its own message: how a hostile one is sent.
const calendarMessage = (id: string, calendar: string) =>
  [
    'From: Eve <eve@example.net>',
    'To: me@example.org',
    'Subject: Everyone',
    'Date: Tue, 01 Dec 2026 13:00:00 +0000',
    `Message-ID: ${id}`,
    'MIME-Version: 1.0',
    'Content-Type: text/calendar; charset=utf-8; method=REQUEST',
    '',
    calendar,
  ].join('\r\n');

beforeAll(async () => {
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  app = createApp({ dataDir: tempDir(), mode: 'browser' });
  const mail = tempDir();
  for (const name of senders) copyFileSync(new URL(`${name}.eml`, fixtures), join(mail, `${name}.eml`));
  writeFileSync(join(mail, 'crowd.eml'), calendarMessage('<crowd@x>', fixture('ten-thousand-attendees.ics')));
  writeFileSync(join(mail, 'plain.eml'), eml({ id: '<plain@x>', subject: 'No invitation' }));
  // Both the account's own address and another of mine are invited: the account's own answers.
  writeFileSync(
    join(mail, 'both.eml'),
    calendarMessage(
      '<both@x>',
      fixture('outlook.ics').replace(
        'ATTENDEE;ROLE=OPT-PARTICIPANT',
        'ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:TEST@example.com\r\nATTENDEE;ROLE=OPT-PARTICIPANT',
      ),
    ),
  );
  writeFileSync(
    join(mail, 'reply.eml'),
    calendarMessage('<reply@x>', fixture('google.ics').replace('METHOD:REQUEST', 'METHOD:REPLY')),
  );
  await app.importFiles([mail], () => {}).done;
  // The account sends; the invitations name me@example.org, one of my addresses that is not its login.
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: 1, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
  await call(app, 'identity:add', { address: 'me@example.org', name: 'Me' });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sink?.close();
});

async function card(message: number) {
  const view = await call(app, 'invitation:get', { message });
  if (view.kind !== 'invitation') throw new Error(`no card: ${JSON.stringify(view)}`);
  return view.card;
}

describe('invitation:get', () => {
  test("shows each sender's invitation, with the address of mine that was invited", async () => {
    const google = await card(ids.google());
    expect(google).toMatchObject({
      method: 'REQUEST',
      title: 'Weekly sync',
      location: 'Room 4, Main St',
      organizer: { address: 'ada@example.com' },
      repeats: 'Every week on Tuesday, 10 times',
      invited: 'me@example.org',
      answer: null,
      update: false,
    });
    expect(google.start).toEqual({
      utc: '2027-01-12T09:00:00.000Z',
      timeZone: 'Europe/Amsterdam',
      allDay: false,
    });
    expect((await card(ids.outlook())).start.timeZone).toBe('Europe/Berlin');
    expect((await card(ids.icloud())).start.allDay).toBe(true);
    expect(await card(ids.fastmail())).toMatchObject({
      title: 'Dentist',
      sequence: 2,
      invited: 'me@example.org',
    });
  });

  test('an update says what changed since the version read before; a cancellation says it cancels', async () => {
    await card(ids.google());
    const update = await card(ids.update());
    expect(update.update).toBe(true);
    expect(update.changes).toEqual([
      {
        field: 'time',
        from: {
          start: { utc: '2027-01-12T09:00:00.000Z', timeZone: 'Europe/Amsterdam', allDay: false },
          end: { utc: '2027-01-12T10:00:00.000Z', timeZone: 'Europe/Amsterdam', allDay: false },
        },
        to: {
          start: { utc: '2027-01-12T10:00:00.000Z', timeZone: 'Europe/Amsterdam', allDay: false },
          end: { utc: '2027-01-12T11:00:00.000Z', timeZone: 'Europe/Amsterdam', allDay: false },
        },
      },
      { field: 'location', from: 'Room 4, Main St', to: 'Room 7, Main St' },
    ]);
    // The first invitation is not an update of the later one.
    expect((await card(ids.google())).update).toBe(false);
    await card(ids.fastmail());
    expect(await card(ids.cancel())).toMatchObject({ method: 'CANCEL', update: true, changes: [] });
  });

  test('a hostile or malformed calendar part is one sentence; a message without one, or with a REPLY, has none', async () => {
    expect(await call(app, 'invitation:get', { message: ids.hostile() })).toEqual({
      kind: 'unreadable',
      sentence:
        'This invitation could not be read: the invitation\'s start is in a time zone Skimmer does not know ("Mars/Olympus_Mons").',
    });
    expect(await call(app, 'invitation:get', { message: ids.crowd() })).toEqual({
      kind: 'unreadable',
      sentence: 'This invitation could not be read: this invitation is too large to read (over 256 KB).',
    });
    expect(await call(app, 'invitation:get', { message: ids.plain() })).toEqual({ kind: 'none' });
    // An answer (a REPLY) is not an invitation: no card, and no sentence either.
    expect(await call(app, 'invitation:get', { message: ids.reply() })).toEqual({ kind: 'none' });
  });
});

describe('invitation:respond', () => {
  test('sends the REPLY from the invited address to the organiser, and the card shows the answer', async () => {
    const item = await call(app, 'invitation:respond', { message: ids.google(), answer: 'ACCEPTED' });
    expect(item).toMatchObject({
      to: ['ada@example.com'],
      subject: 'Accepted: Weekly sync',
      state: 'queued',
    });
    expect((await card(ids.google())).answer).toEqual({
      answer: 'ACCEPTED',
      sequence: 0,
      outboxId: item.id,
      state: 'queued',
    });
    // The update is answered by the same event's answer, to an earlier version.
    expect((await card(ids.update())).answer).toMatchObject({ answer: 'ACCEPTED', sequence: 0 });

    const before = sink.received.length;
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(1);
    const [got] = (await sink.waitFor(before + 1)).slice(before);
    expect(got?.to).toEqual(['ada@example.com']);
    const parsed = await simpleParser(got?.raw ?? Buffer.alloc(0));
    expect(parsed.from?.value).toEqual([{ name: 'Me', address: 'me@example.org' }]);
    expect(parsed.inReplyTo).toBe('<calendar-7kukuqrf-0@google.com>');
    const raw = (got?.raw ?? Buffer.alloc(0)).toString('utf8');
    expect(raw).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REPLY/);
    const calendar = parsed.attachments.find((a) => a.contentType === 'text/calendar');
    const reply = calendar?.content.toString('utf8').replace(/\r\n[ \t]/g, '') ?? '';
    expect(reply).toContain('METHOD:REPLY');
    expect(reply).toContain('UID:7kukuqrfedlm2f9t0vr42q3nsk@google.com');
    expect(reply).toContain('ORGANIZER;CN=Ada Lovelace:mailto:ada@example.com');
    expect(reply).toContain('ATTENDEE;CN=me@example.org;PARTSTAT=ACCEPTED:mailto:me@example.org');
    expect((await card(ids.google())).answer?.state).toBe('sent');
  });

  test("answers from the account's own address when it and another of mine are both invited", async () => {
    expect((await card(ids.both())).invited).toBe('test@example.com');
    const item = await call(app, 'invitation:respond', { message: ids.both(), answer: 'DECLINED' });
    expect(app.db.prepare('SELECT from_address FROM outbox WHERE id = ?').pluck().get(item.id)).toBe(
      'test@example.com',
    );
    expect((await call(app, 'outbox:cancel', { id: item.id })).cancelled).toBe(true);
  });

  test('Undo takes the answer back with the message', async () => {
    const item = await call(app, 'invitation:respond', { message: ids.outlook(), answer: 'TENTATIVE' });
    expect((await card(ids.outlook())).answer?.answer).toBe('TENTATIVE');
    expect((await call(app, 'outbox:cancel', { id: item.id })).cancelled).toBe(true);
    expect((await card(ids.outlook())).answer).toBeNull();
  });

  test('a cancellation, a hostile part and an unknown message cannot be answered', async () => {
    for (const message of [ids.cancel(), ids.hostile(), ids.plain()]) {
      expect(await callRaw(app, 'invitation:respond', { message, answer: 'DECLINED' })).toMatchObject({
        ok: false,
        error: { code: 'invalid_request' },
      });
    }
    expect(await callRaw(app, 'invitation:respond', { message: 99_999, answer: 'DECLINED' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(
      await callRaw(app, 'invitation:respond', { message: ids.google(), answer: 'MAYBE' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});

describe('invitation:ics', () => {
  test('gives the calendar part as the sender sent it, and none for a hostile one', async () => {
    const got = await call(app, 'invitation:ics', { message: ids.outlook() });
    expect(got.name).toBe('Q1 review.ics');
    expect(Buffer.from(got.data, 'base64').toString('utf8')).toBe(
      fixture('outlook.ics').replace(/\r?\n/g, '\r\n'),
    );
    expect(await callRaw(app, 'invitation:ics', { message: ids.crowd() })).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
    });
  });
});
