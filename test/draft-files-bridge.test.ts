// Files on drafts over the bridge (issue 16, "Write mail"), on a real SQLite file: a file arrives in chunks
// (draft:attachStart, draft:attachChunk) and is stored with its draft only when complete; a chunk out of order,
// more bytes than announced, or a file over the bound is refused with a sentence; draft:detach takes one off;
// Undo of a send and Dismiss give the draft back with its files. And mail:contacts, the composer's completion.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { maxAttachmentBytes } from '../shared/contract/index.ts';
import { call, callRaw } from './support/bridge.ts';
import { eml, tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

const blank = () =>
  call(app, 'draft:new', { kind: 'blank', to: ['ann@example.org'], cc: [], subject: 'Files', body: '' });
const start = (draftId: number, size: number, name = 'notes.txt') =>
  call(app, 'draft:attachStart', { draftId, name, contentType: 'text/plain', size });
const chunk = (uploadId: string, offset: number, bytes: Buffer) =>
  callRaw(app, 'draft:attachChunk', { uploadId, offset, data: bytes.toString('base64') });

beforeAll(async () => {
  // An account that can send, never reached: the tests only queue and undo.
  await call(app, 'account:add', {
    name: 'work',
    user: 'me@example.com',
    password: 'secret',
    imap: { host: '127.0.0.1', port: 1, tls: 'none' },
    smtp: { host: '127.0.0.1', port: 1, tls: 'none' },
  });
});

describe('attaching a file in chunks', () => {
  test('stores the file with its draft when its last chunk arrives, not before', async () => {
    const draft = await blank();
    const bytes = Buffer.from('one two three four');
    const { uploadId } = await start(draft.id, bytes.length);
    expect(await chunk(uploadId, 0, bytes.subarray(0, 8))).toEqual({
      ok: true,
      value: { received: 8, attachment: null },
    });
    expect((await call(app, 'draft:show', { id: draft.id })).attachments).toEqual([]);
    const done = await chunk(uploadId, 8, bytes.subarray(8));
    expect(done).toEqual({
      ok: true,
      value: {
        received: bytes.length,
        attachment: {
          id: expect.any(Number),
          name: 'notes.txt',
          contentType: 'text/plain',
          size: bytes.length,
          origin: 'file',
        },
      },
    });
    expect((await call(app, 'draft:show', { id: draft.id })).attachments.map((a) => a.name)).toEqual([
      'notes.txt',
    ]);
    const stored = app.db
      .prepare('SELECT content FROM draft_attachments WHERE draft_id = ?')
      .pluck()
      .get(draft.id);
    expect(stored).toEqual(bytes);
    // The upload is over: another chunk finds nothing.
    expect(await chunk(uploadId, bytes.length, Buffer.from('x'))).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  test('refuses a chunk at the wrong offset and forgets the upload', async () => {
    const draft = await blank();
    const { uploadId } = await start(draft.id, 10);
    expect(await chunk(uploadId, 0, Buffer.from('abcd'))).toMatchObject({ ok: true });
    expect(await chunk(uploadId, 5, Buffer.from('efghij'))).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message:
          'The file "notes.txt" arrived out of order (5 bytes in, where 4 had arrived): attach it again.',
      },
    });
    expect(await chunk(uploadId, 4, Buffer.from('efghij'))).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect((await call(app, 'draft:show', { id: draft.id })).attachments).toEqual([]);
  });

  test('refuses more bytes than the size announced', async () => {
    const draft = await blank();
    const { uploadId } = await start(draft.id, 3);
    expect(await chunk(uploadId, 0, Buffer.from('abcd'))).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: 'The file "notes.txt" is bigger than the 3 bytes announced: attach it again.',
      },
    });
    expect((await call(app, 'draft:show', { id: draft.id })).attachments).toEqual([]);
  });

  test('refuses a file over the bound before any byte is sent, and one that would overfill the draft', async () => {
    const draft = await blank();
    expect(
      await callRaw(app, 'draft:attachStart', {
        draftId: draft.id,
        name: 'huge.iso',
        contentType: '',
        size: maxAttachmentBytes + 1,
      }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    await start(draft.id, maxAttachmentBytes - 10, 'big.bin'); // announced, still open
    expect(
      await callRaw(app, 'draft:attachStart', {
        draftId: draft.id,
        name: 'more.bin',
        contentType: '',
        size: 11,
      }),
    ).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: "A draft's files can be at most 25 MB together: this one does not fit.",
      },
    });
    // Discarding the draft forgets its open upload too.
    await call(app, 'draft:discard', { id: draft.id });
  });

  test('refuses a file for a draft that does not exist', async () => {
    expect(
      await callRaw(app, 'draft:attachStart', { draftId: 999_999, name: 'a.txt', contentType: '', size: 1 }),
    ).toMatchObject({ ok: false, error: { code: 'not_found', message: 'That draft does not exist.' } });
  });

  test('guesses the type of a file the picker did not know from its name', async () => {
    const draft = await blank();
    const { uploadId } = await call(app, 'draft:attachStart', {
      draftId: draft.id,
      name: 'scan.pdf',
      contentType: '',
      size: 2,
    });
    const r = await call(app, 'draft:attachChunk', {
      uploadId,
      offset: 0,
      data: Buffer.from('%P').toString('base64'),
    });
    expect(r.attachment?.contentType).toBe('application/pdf');
  });

  test('draft:detach takes one file off', async () => {
    const draft = await blank();
    for (const name of ['a.txt', 'b.txt']) {
      const { uploadId } = await start(draft.id, 1, name);
      await chunk(uploadId, 0, Buffer.from('x'));
    }
    const [a, b] = (await call(app, 'draft:show', { id: draft.id })).attachments;
    const after = await call(app, 'draft:detach', { draftId: draft.id, attachmentId: a?.id ?? 0 });
    expect(after.attachments).toEqual([b]);
    expect(await callRaw(app, 'draft:detach', { draftId: draft.id, attachmentId: a?.id ?? 0 })).toMatchObject(
      {
        ok: false,
        error: { code: 'not_found' },
      },
    );
  });

  test('Undo of a send and Dismiss give the draft back with its files, Bcc and From', async () => {
    const draft = await call(app, 'draft:new', {
      kind: 'blank',
      fromAddress: 'me@example.com',
      to: ['ann@example.org'],
      cc: [],
      bcc: ['boss@example.org'],
      subject: 'With a file',
      body: 'See attached.',
    });
    const { uploadId } = await start(draft.id, 5);
    await chunk(uploadId, 0, Buffer.from('hello'));
    const queued = await call(app, 'draft:send', { id: draft.id });
    expect(
      app.db.prepare('SELECT count(*) FROM draft_attachments WHERE outbox_id = ?').pluck().get(queued.id),
    ).toBe(1);
    const undone = await call(app, 'outbox:cancel', { id: queued.id });
    const back = await call(app, 'draft:show', { id: undone.draft ?? 0 });
    expect(back).toMatchObject({
      fromAddress: 'me@example.com',
      bcc: ['boss@example.org'],
      attachments: [{ name: 'notes.txt', size: 5, origin: 'file' }],
    });
    // Sent again, cancelled, dismissed: still there.
    const again = await call(app, 'draft:send', { id: back.id });
    expect(app.outbox.cancel(again.id)).toBe(true);
    const { draft: dismissed } = await call(app, 'outbox:dismiss', { id: again.id });
    expect(dismissed.attachments.map((a) => [a.name, a.size])).toEqual([['notes.txt', 5]]);
    expect(
      app.db.prepare('SELECT content FROM draft_attachments WHERE draft_id = ?').pluck().get(dismissed.id),
    ).toEqual(Buffer.from('hello'));
  });
});

describe('mail:contacts', () => {
  beforeAll(async () => {
    const mail = tempDir();
    const people = [
      ['Priya Raman <priya.raman@example.com>', 3],
      ['Ana Müller <ana@example.de>', 2],
      ['Ramón Ortiz <ramon@example.es>', 1],
      ['Mark <mark@muller-law.example>', 4],
    ] as const;
    let n = 0;
    for (const [from, times] of people) {
      for (let i = 0; i < times; i++) {
        n += 1;
        writeFileSync(join(mail, `${n}.eml`), eml({ id: `<c${n}@x>`, subject: `Note ${n}`, from }));
      }
    }
    await app.importFiles([mail], () => {}).done;
  });
  const find = (prefix: string, limit?: number) =>
    call(app, 'mail:contacts', { prefix, ...(limit ? { limit } : {}) }).then((list) =>
      list.map((a) => a.address),
    );

  test('matches a prefix at the start of a word of the name or address, without case or accents', async () => {
    expect(await find('RAM')).toEqual(['priya.raman@example.com', 'ramon@example.es']);
    expect(await find('mull')).toEqual(['mark@muller-law.example', 'ana@example.de']);
    expect(await find('raman@')).toEqual(['priya.raman@example.com']);
    // Inside a word is no match.
    expect(await find('iya')).toEqual([]);
  });

  test('puts the most often named first and stops at the limit', async () => {
    // bob@example.com is in every message's To (support/temp.ts eml), so the most often named.
    expect(await find('example')).toEqual([
      'bob@example.com',
      'mark@muller-law.example',
      'priya.raman@example.com',
      'ana@example.de',
      'ramon@example.es',
    ]);
    expect(await find('example', 2)).toEqual(['bob@example.com', 'mark@muller-law.example']);
    expect((await call(app, 'mail:contacts', { prefix: 'ana' }))[0]).toEqual({
      name: 'Ana Müller',
      address: 'ana@example.de',
    });
  });

  test('forgets people whose last message is deleted', async () => {
    app.db.prepare("DELETE FROM messages WHERE from_addr = 'ramon@example.es'").run();
    expect(await find('ram')).toEqual(['priya.raman@example.com']);
  });
});
