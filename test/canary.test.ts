// DESIGN §4: a key stored in the vault must never appear in the database file (or its WAL), the log,
// any bridge response or any stream event, in plain text or in the encodings a leak would take.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { dispatch } from '../electron/bridge/dispatch.ts';
import { channelNames } from '../shared/contract/index.ts';
import { eml, tempDir } from './support/temp.ts';

const canary = 'sk-test-canary-9f8e7d6c';
const forms = [
  canary,
  Buffer.from(canary).toString('base64'),
  Buffer.from(canary).toString('hex'),
  canary.slice(8, 40),
];

// A service that echoes whatever credentials it is sent, in an error body, as some servers do.
const echo = createServer((req, res) => {
  res.writeHead(401, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      error: { message: `Incorrect API key: ${req.headers.authorization}`, type: 'invalid_request_error' },
    }),
  );
});
await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
const echoBase = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/v1`;
afterAll(() => new Promise<void>((r) => echo.close(() => r())));

const dataDir = tempDir();
const app = createApp({ dataDir, mode: 'browser' });
afterAll(() => app.close());

function assertClean(where: string, text: string) {
  for (const f of forms) expect(text.includes(f), `${where} contains the canary`).toBe(false);
}

describe('the canary key', () => {
  test('appears nowhere outside the vault', async () => {
    await app.vault.set('other:canary', canary);
    expect(await app.vault.get('other:canary')).toBe(canary);

    const mail = tempDir();
    writeFileSync(join(mail, '1.eml'), eml({ id: '<1@x>', subject: 'hello', body: 'searchable words' }));
    const seen: string[] = [];
    app.streams.listen((m) => seen.push(JSON.stringify(m)));

    // Every channel, with a good request and a bad one.
    const requests: Record<string, unknown[]> = {
      'app:info': [{}, { extra: 1 }],
      'documents:import': [{ paths: ['/nonexistent/notes.txt'] }, { paths: [] }],
      'documents:list': [{}],
      'files:pick': [{ purpose: 'mail', kind: 'files' }, { purpose: canary }],
      'files:browse': [
        { dir: mail },
        { dir: canary },
        { dir: mail, filter: canary },
        { dir: mail, hidden: canary },
      ],
      'documents:read': [{ documentId: 1 }, { documentId: 1, chunkId: canary }],
      'documents:search': [{ query: canary }],
      'mail:folders': [{}, null],
      'mail:threads': [{ folderId: null }, { limit: -1 }],
      'mail:thread': [{ threadId: 1 }, { threadId: 'x' }],
      'mail:search': [{ query: 'searchable' }, { query: canary }],
      'mail:import': [{ paths: [mail] }, { paths: [] }],
      'mail:markRead': [{ ids: [1], read: true }, { ids: [] }],
      'mail:star': [{ ids: [1], starred: true }, { ids: [1] }],
      'service:add': [
        { name: 'canary', kind: 'openai', baseUrl: echoBase, key: canary },
        { name: 'bad name/', kind: 'openai', baseUrl: 'https://x.example', key: canary },
        { name: 'second', kind: 'openai', baseUrl: `https://x.example/v1?key=${canary}`, key: canary },
      ],
      'service:update': [
        { id: 1, key: canary },
        { id: 99, key: canary },
      ],
      'service:list': [{}],
      'service:models': [{ id: 1 }, { id: 99 }],
      'service:test': [{ id: 1 }, { id: 'x' }],
      'service:consent': [
        { id: 1, allow: true },
        { id: 99, allow: false },
      ],
      'service:price': [
        { id: 1, inputPrice: 0.15 },
        { id: 99, inputPrice: -1 },
      ],
      'service:remove': [{ id: 99 }],
      'chat:send': [
        { model: 'canary/m', prompt: 'hello' },
        { model: 'canary/m', prompt: 'archive my newsletters', tools: true },
        { model: canary, prompt: '' },
      ],
      'chat:answer': [
        { conversationId: 1, answers: [{ id: 'c1', decision: 'approve' }] },
        { conversationId: 1, answers: [{ id: canary, decision: 'deny', reason: canary }] },
      ],
      'grant:list': [{}],
      'grant:revoke': [{ id: 99 }],
      'audit:list': [{}, { conversationId: 2, limit: 5 }],
      'account:add': [
        {
          name: 'canary-mail',
          user: 'me@example.com',
          password: canary,
          imap: { host: '127.0.0.1', port: 1, tls: 'none' },
          smtp: { host: '127.0.0.1', port: 1, tls: 'none' },
        },
        {
          name: 'remote',
          user: 'me',
          password: canary,
          imap: { host: 'imap.example.com', port: 143, tls: 'none' },
        },
      ],
      'account:list': [{}],
      'account:update': [
        { id: 2, password: canary },
        { id: 99, password: canary },
      ],
      'account:watch': [{}],
      'account:focus': [{ folderId: null }, { folderId: 99 }],
      // Nothing listens on port 1: the failure sentences must not carry the password.
      'account:test': [{ id: 2 }, { id: 99 }],
      'account:sync': [{ id: 2 }],
      'account:remove': [{ id: 99 }],
      'outbox:list': [{}],
      'outbox:cancel': [{ id: 99 }],
      'outbox:retry': [{ id: 99 }],
      'outbox:dismiss': [{ id: 99 }],
      'mail:archive': [{ ids: [99] }],
      'mail:trash': [{ ids: [99] }],
      'mail:retrySync': [{ id: 99 }],
      'mail:bulk': [
        { selection: { scope: { view: 'inbox' }, threads: [99] }, action: { kind: 'archive' } },
        { selection: { scope: { query: canary } }, action: { kind: 'label', add: ['Receipts'], remove: [] } },
      ],
      'mail:selectionLabels': [{ selection: { scope: { view: 'all' } } }],
      'model:defaults': [{}],
      // A default on a service that does not exist: the refusal must not echo the model's name.
      'model:setDefault': [
        { task: 'chat', model: `nowhere/${canary}` },
        { task: 'triage', model: 'canary/m' },
        { task: 'summary', model: null },
      ],
      'model:lists': [{}],
      'summary:stored': [{ threadId: 1 }, { threadId: 99 }],
      'judge:sets': [{}],
      // A set is the user's own words and comes back as written; a refused one must not echo what it held.
      'judge:saveSet': [
        { name: 'Urgency', questions: [{ type: 'predicate', name: 'x', instructions: 'Is it urgent?' }] },
        { name: canary, questions: [] },
        {
          name: 'Bad',
          questions: [{ type: 'choice', name: 'y', instructions: canary, choices: [{ value: canary }] }],
        },
      ],
      'judge:removeSet': [{ id: 99 }],
      'judge:addStarters': [{}, { extra: canary }],
      'judge:answers': [{ setId: 1, messageIds: [1] }],
      'judge:threadAnswers': [{ setId: 1, threadIds: [1] }],
      'judge:orderedThreads': [
        { setId: 1, view: 'inbox', sortBy: 'x' },
        { setId: 1, folderId: 99, filter: { question: canary, value: null } },
      ],
      // The canary service is off this computer and has no consent for mail: refused without its key.
      'judge:setNewMail': [
        { setId: 1, model: 'canary/m' },
        { setId: 1, model: null },
      ],
      'triage:estimate': [{ setId: 1, scope: { kind: 'all' } }],
      'triage:start': [
        { setId: 1, model: 'canary/m', scope: { kind: 'query', query: 'nothing-matches-this' } },
      ],
      'triage:jobs': [{}],
      'triage:suggest': [
        {
          setId: 1,
          scope: { kind: 'all' },
          rules: [{ question: 'x', when: { op: 'is', value: canary }, action: { kind: 'archive' } }],
        },
      ],
      'triage:apply': [
        {
          setId: 1,
          scope: { kind: 'all' },
          rules: [
            { question: 'x', when: { op: 'is', value: 'y' }, action: { kind: 'move', folder: canary } },
          ],
          approve: [{ rule: 0, messageIds: [1] }],
        },
      ],
      'triage:resume': [{ id: 99 }],
      'triage:cancel': [{ id: 99 }],
      'summary:thread': [
        { threadId: 1, model: 'canary/m' },
        { threadId: 99, model: 'canary/m' },
      ],
      'summary:ask': [
        { model: 'canary/m', question: canary, threadId: 1 },
        { model: 'canary/m', question: canary },
      ],
      'draft:list': [{}],
      // A drafted reply through the echoing service: its error on the stream does not carry the key.
      'draft:aiReply': [
        { message: 1, model: 'canary/m' },
        { message: 99, model: 'canary/m', instructions: canary },
      ],
      'draft:assist': [{ id: 1 }, { id: 99 }],
      'draft:new': [
        { kind: 'blank', to: ['a@example.com'], cc: [], subject: 'x', body: 'y' },
        { kind: 'reply', message: 1, to: [], body: 'y' },
        { kind: 'blank', fromAddress: canary, to: [], cc: [], subject: 'x', body: 'y' },
      ],
      'draft:show': [{ id: 99 }],
      'draft:save': [
        { id: 99, fromAddress: null, to: ['a@example.com'], cc: [], bcc: [], subject: canary, body: canary },
      ],
      // A refused upload or From is not echoed back.
      'draft:attachStart': [{ draftId: 99, name: 'a.txt', contentType: 'text/plain', size: 3 }],
      'draft:attachChunk': [{ uploadId: canary.slice(0, 64), offset: 0, data: 'YWJj' }],
      'draft:detach': [{ draftId: 99, attachmentId: 1 }],
      'mail:contacts': [{ prefix: 'a' }, { prefix: canary.slice(0, 320) }],
      'draft:send': [{ id: 99 }],
      'draft:discard': [{ id: 99 }],
      'identity:list': [{}],
      'attachment:list': [{ message: 1 }, { message: 99 }],
      // Browser mode has no desktop shell: these answer `available: false` and write nothing.
      'attachment:save': [
        { message: 1, index: 0 },
        { message: 99, index: canary },
      ],
      'attachment:save-all': [{ message: 1 }, { message: canary }],
      'attachment:open': [
        { message: 1, index: 0, confirmed: false },
        { message: 99, index: 0, confirmed: canary },
      ],
      'unsubscribe:options': [{ message: 1 }, { message: 99 }],
      'unsubscribe:run': [{ message: 1 }, { message: 99 }],
      'attachment:read': [
        { message: 1, index: 0, offset: 0, length: 1024 },
        { message: 99, index: 0, offset: 0, length: 1024 },
      ],
      'invitation:get': [{ message: 1 }, { message: 99 }],
      'invitation:respond': [
        { message: 1, answer: 'ACCEPTED' },
        { message: 99, answer: canary },
      ],
      'invitation:ics': [{ message: 1 }, { message: 99 }],
      // A refused address is not echoed; a signature is the user's own words, so none is stored here.
      'identity:add': [
        { address: 'me@example.com', name: 'Me' },
        { address: canary },
        { address: 'x@example.com', name: canary.repeat(20) },
      ],
      'identity:remove': [{ address: 'me@example.com' }, { address: canary }],
      'label:overview': [{}, { extra: canary }],
      'label:ofThreads': [{ threads: [1, 99] }, { threads: [canary] }],
      'label:setColour': [
        { id: 99, colour: 'teal' },
        { id: 1, colour: canary },
      ],
      // A refused name is not echoed back (a label's or folder's name may be the user's own words).
      'label:rename': [
        { id: 99, name: canary },
        { id: canary, name: 'x' },
      ],
      'label:delete': [{ id: 99 }, { id: canary }],
      'folder:create': [
        { accountId: 99, name: canary },
        { accountId: null, name: `${canary}/..` },
      ],
      'folder:rename': [
        { id: 99, name: canary },
        { id: canary, name: 'x' },
      ],
      'folder:delete': [{ id: 99 }, { id: canary }],
      'mail:undoable': [{}],
      'mail:undo': [{ count: 1 }, { id: 99 }],
      'chat:list': [{}],
      'chat:history': [{ conversationId: 1 }, { conversationId: 'x' }],
      'run:cancel': [{ streamId: 'nope' }, {}],
      'agent:pending': [{}],
      'agent:answer': [
        { id: 99, argsHash: 'a'.repeat(64), decision: 'approve' },
        { id: 1, argsHash: canary, decision: 'deny' },
      ],
      'agent:watch': [{}],
      'link:open': [{ url: 'https://example.com' }, { url: `javascript:${canary}` }],
      'app:notify': [{ title: '1 new message', body: 'Ana: Lunch?' }],
      'account:discover': [{ address: 'not an address' }],
      // A sign-in refused before it starts (no listener is left waiting) never echoes what it was given.
      'account:oauthPresets': [{}],
      'account:oauthStart': [
        { name: 'signin', user: 'a@example.com', provider: canary, clientId: canary },
        {
          name: 'signin',
          user: 'a@example.com',
          provider: 'http://mail.example.com',
          clientId: 'c',
          clientSecret: canary,
        },
      ],
      'account:oauthSignIn': [{ id: 99 }],
      'account:oauthWait': [{ signInId: 'nope' }],
      'account:oauthCancel': [{ signInId: 'nope' }],
    };
    expect(Object.keys(requests).sort()).toEqual([...channelNames].sort());
    for (const [channel, list] of Object.entries(requests)) {
      for (const r of list) {
        const response = JSON.stringify(await dispatch(app.handlers, channel, r, true));
        assertClean(`${channel} response`, response);
      }
    }
    await expect.poll(() => seen.some((s) => s.includes('import_done'))).toBe(true);
    // The chat with the echoing service failed as unauthorized, on the stream, without the key.
    await expect.poll(() => seen.some((s) => s.includes('"chat_error"'))).toBe(true);
    expect(seen.find((s) => s.includes('"chat_error"'))).toContain('unauthorized');
    // The service added above holds the canary: it is in the vault, and the views say only hasKey.
    // The echoing service saw the key (so the path was really exercised) and the answer did not carry it.
    expect(await dispatch(app.handlers, 'service:models', { id: 1 }, true)).toMatchObject({
      ok: false,
      error: { code: 'unauthorized' },
    });
    const listed = await dispatch(app.handlers, 'service:list', {}, true);
    expect(listed).toMatchObject({ ok: true, value: [{ name: 'canary', hasKey: true }] });
    for (const s of seen) assertClean('stream event', s);

    app.db.pragma('wal_checkpoint(PASSIVE)');
    for (const name of readdirSync(dataDir)) {
      if (name === 'vault.key') continue;
      assertClean(name, readFileSync(join(dataDir, name)).toString('latin1'));
    }
    expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['skimmer.db', 'skimmer.log']));
    expect(readFileSync(join(dataDir, 'skimmer.log'), 'utf8')).toContain('import_done');
  });
});
