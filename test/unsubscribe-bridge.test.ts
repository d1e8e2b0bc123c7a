// Unsubscribing through the bridge (issue 29 §3), with a loopback HTTPS listener certified by the tests' own CA,
// the SMTP sink and a real SQLite file. What it proves: a one-click unsubscribe is one POST of exactly
// `List-Unsubscribe=One-Click`, form-encoded, carrying no cookie, referrer, origin or credentials; a redirect is
// followed on the same host only, never to another host or to plain HTTP (nothing reaches either); a 500 is an
// error naming the host; an email-only list gets its message through the outbox, which reaches the sink after
// the Undo window with the URI's To, Subject and body, and an Undo takes the unsubscribe back; an http link is
// handed back to open; and each result is kept on the sender, for every message of it.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../electron/app.ts';
import { prepareOutbox, undoWindowMs } from '../electron/mail/send/outbox.ts';
import { channels, envelope } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { startHttpServer, startHttpsServer, type WebServer } from './support/https-server.ts';
import { type SmtpSink, startSmtpSink } from './support/smtp-sink.ts';
import { tempDir } from './support/temp.ts';
import { startTestCa } from './support/test-ca.ts';

const fixtures = join(import.meta.dirname, '../fixtures/unsubscribe');
let web: WebServer;
let plain: WebServer;
let sink: SmtpSink;
let app: App;
let host = '';

const idOf = (name: string) =>
  app.db
    .prepare('SELECT id FROM messages WHERE message_id = ?')
    .pluck()
    .get(`<${name}@unsubscribe.test>`) as number;
const options = (name: string) => call(app, 'unsubscribe:options', { message: idOf(name) });
const run = async (name: string) =>
  envelope(channels['unsubscribe:run'].response).parse(
    await callRaw(app, 'unsubscribe:run', { message: idOf(name) }),
  );
const postsTo = (path: string) => web.received.filter((r) => r.path === path);

beforeAll(async () => {
  const ca = startTestCa();
  web = await startHttpsServer(ca, ['localhost']);
  plain = await startHttpServer();
  host = `127.0.0.1:${web.port}`;
  const ok = { status: 200, body: 'You are unsubscribed.', headers: { 'content-type': 'text/plain' } };
  web.serve('127.0.0.1', '/u/one-click', ok);
  web.serve('127.0.0.1', '/u/moved', { status: 307, body: '', headers: { location: '/u/moved-here' } });
  web.serve('127.0.0.1', '/u/moved-here', ok);
  web.serve('127.0.0.1', '/u/other-host', {
    status: 307,
    body: '',
    headers: { location: `https://localhost:${web.port}/u/one-click` },
  });
  web.serve('127.0.0.1', '/u/plain', {
    status: 308,
    body: '',
    headers: { location: `http://127.0.0.1:${plain.port}/u/one-click` },
  });
  web.serve('127.0.0.1', '/u/broken', { status: 500, body: 'oops' });
  plain.serve('127.0.0.1', '/u/one-click', ok);

  const mail = tempDir();
  for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.eml'))) {
    writeFileSync(join(mail, name), readFileSync(join(fixtures, name), 'utf8').replaceAll('{{host}}', host));
  }
  sink = await startSmtpSink({ user: 'test@example.com', pass: 'secret' });
  // Not the background app: the test sends what is due itself, past the undo window.
  app = createApp({ dataDir: tempDir(), mode: 'browser', extraCa: ca.cert });
  await app.importFiles([mail], () => {}).done;
  await call(app, 'account:add', {
    name: 'work',
    user: 'test@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: 1, tls: 'none' },
    smtp: { host: sink.host, port: sink.port, tls: 'none' },
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sink?.close();
});

describe('unsubscribe:options', () => {
  test('names the way and where it goes, for each kind of offer, and nothing for a message without one', async () => {
    expect(await options('one-click')).toEqual({
      sender: 'news@daily.example',
      target: { method: 'one-click', host },
      unsubscribed: null,
    });
    expect((await options('mailto')).target).toEqual({ method: 'mailto', to: ['leave@weekly.example'] });
    expect((await options('http')).target).toEqual({
      method: 'http',
      host: 'unsub.old.example',
      url: 'http://unsub.old.example/u?id=7',
    });
    expect((await options('none')).target).toBeNull();
    const missing = await callRaw(app, 'unsubscribe:options', { message: 999_999 });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});

describe('one-click (RFC 8058)', () => {
  test('POSTs exactly the one-click body with no cookie, referrer or credentials, and keeps it on the sender', async () => {
    const before = Date.now();
    const reply = await run('one-click');
    if (!reply.ok) throw new Error(reply.error.message);
    expect(reply.value).toEqual({ method: 'one-click', at: expect.any(Number), outboxId: null, url: null });
    const [post, ...more] = postsTo('/u/one-click');
    expect(more).toEqual([]);
    expect(post?.method).toBe('POST');
    expect(post?.body).toBe('List-Unsubscribe=One-Click');
    expect(post?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    for (const header of ['cookie', 'referer', 'origin', 'authorization']) {
      expect(post?.headers[header]).toBeUndefined();
    }
    // Every message of that sender says so, the one not clicked too.
    const again = await options('one-click-again');
    expect(again.unsubscribed).toEqual({ at: reply.value.at, method: 'one-click' });
    expect(reply.value.at).toBeGreaterThanOrEqual(before);
  });

  test('a redirect on the same host is followed, still a POST with the same body', async () => {
    const reply = await run('moved');
    expect(reply.ok).toBe(true);
    expect(postsTo('/u/moved-here').map((r) => [r.method, r.body])).toEqual([
      ['POST', 'List-Unsubscribe=One-Click'],
    ]);
  });

  test('a redirect to another host is refused, and that host hears nothing', async () => {
    const reply = await run('other-host');
    expect(reply).toEqual({
      ok: false,
      error: {
        code: 'io',
        message: `${host} redirected the request to another host (localhost:${web.port}), so it was not sent on.`,
      },
    });
    expect(web.received.filter((r) => r.host === 'localhost')).toEqual([]);
    expect((await options('other-host')).unsubscribed).toBeNull();
  });

  test('a redirect to plain HTTP is refused, and nothing is sent in the clear', async () => {
    const reply = await run('plain-redirect');
    expect(reply).toEqual({
      ok: false,
      error: { code: 'io', message: `${host} redirected the request to plain HTTP, so it was not sent on.` },
    });
    expect(plain.received).toEqual([]);
  });

  test('a 500 is a clear error naming the host, and the sender is not marked', async () => {
    const reply = await run('broken');
    expect(reply).toEqual({
      ok: false,
      error: {
        code: 'io',
        message: `${host} answered 500 to the unsubscribe request: you may still be on the list.`,
      },
    });
    expect((await options('broken')).unsubscribed).toBeNull();
  });
});

describe('by email (mailto)', () => {
  test('the message reaches the SMTP server after the undo window, with the URI’s To, Subject and body', async () => {
    const reply = await run('mailto');
    if (!reply.ok) throw new Error(reply.error.message);
    const { outboxId } = reply.value;
    expect(reply.value.method).toBe('mailto');
    expect(outboxId).toEqual(expect.any(Number));
    expect((await options('mailto')).unsubscribed).toEqual({ at: reply.value.at, method: 'mailto' });
    // Inside the undo window nothing goes.
    expect(await prepareOutbox(app.db).sendDue(app.accounts)).toBe(0);
    const later = () => Date.now() + undoWindowMs + 1000;
    expect(await prepareOutbox(app.db, later).sendDue(app.accounts)).toBe(1);
    const [got] = await sink.waitFor(1, 20_000);
    expect(got?.to).toEqual(['leave@weekly.example']);
    const parsed = await simpleParser(got?.raw ?? Buffer.alloc(0));
    expect(parsed.subject).toBe('Unsubscribe me');
    expect(parsed.text?.trim()).toBe('Please remove test@example.com');
    // Sent from the address the list wrote to.
    expect(parsed.from?.value.map((a) => a.address)).toEqual(['test@example.com']);
    expect((await options('mailto')).unsubscribed?.method).toBe('mailto');
  });

  test('Undo in the outbox takes the unsubscribe back', async () => {
    const reply = await run('mailto-undo');
    if (!reply.ok || reply.value.outboxId === null) throw new Error('not queued');
    expect((await options('mailto-undo')).unsubscribed?.method).toBe('mailto');
    expect(await call(app, 'outbox:cancel', { id: reply.value.outboxId })).toMatchObject({ cancelled: true });
    expect((await options('mailto-undo')).unsubscribed).toBeNull();
  });
});

describe('a page to open (http)', () => {
  test('hands the URL back to be opened, requests nothing itself, and keeps it on the sender', async () => {
    const reply = await run('http');
    expect(reply).toEqual({
      ok: true,
      value: {
        method: 'http',
        at: expect.any(Number),
        outboxId: null,
        url: 'http://unsub.old.example/u?id=7',
      },
    });
    expect((await options('http')).unsubscribed?.method).toBe('http');
  });

  test('a message offering nothing cannot be unsubscribed from', async () => {
    expect(await run('none')).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
  });
});
