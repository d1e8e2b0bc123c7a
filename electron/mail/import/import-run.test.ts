import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { openDatabase } from '../../db/open.ts';
import { prepareQueries } from '../store/queries.ts';
import { runImport } from './import-run.ts';

const noHooks = { onProgress: () => {}, isCancelled: () => false };

function mailbox(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function db() {
  return openDatabase(join(tempDir(), 'skimmer.db'));
}

describe('runImport', () => {
  test('keeps the good messages around a broken one and records the reason', async () => {
    const dir = mailbox({
      '1.eml': eml({ id: '<1@example.com>', subject: 'first' }),
      '2.eml': 'this is not a message at all',
      '3.eml': eml({ id: '<3@example.com>', subject: 'third' }),
    });
    const d = db();
    const { summary, cancelled } = await runImport(d, [dir], noHooks);
    expect(cancelled).toBe(false);
    expect(summary.imported).toBe(2);
    expect(summary.failed).toEqual([
      { source: join(dir, '2.eml'), reason: 'The file does not start with mail headers.' },
    ]);
    expect(d.prepare('SELECT source, reason FROM import_failures').all()).toEqual([
      { source: join(dir, '2.eml'), reason: 'The file does not start with mail headers.' },
    ]);
  });

  test('imports a Maildir message whose file name carries the F flag as starred', async () => {
    const dir = tempDir();
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(dir, sub));
    writeFileSync(join(dir, 'cur', '1.host:2,FS'), eml({ id: '<flagged@example.com>', subject: 'flagged' }));
    writeFileSync(join(dir, 'cur', '2.host:2,S'), eml({ id: '<seen@example.com>', subject: 'seen' }));
    writeFileSync(join(dir, 'new', '3.host'), eml({ id: '<new@example.com>', subject: 'new' }));
    const d = db();
    expect((await runImport(d, [dir], noHooks)).summary.imported).toBe(3);
    expect(d.prepare('SELECT message_id, starred FROM messages ORDER BY message_id').all()).toEqual([
      { message_id: '<flagged@example.com>', starred: 1 },
      { message_id: '<new@example.com>', starred: 0 },
      { message_id: '<seen@example.com>', starred: 0 },
    ]);
  });

  test('re-importing the same files adds nothing', async () => {
    const dir = mailbox({
      '1.eml': eml({ id: '<1@example.com>', subject: 'a' }),
      '2.eml': eml({ subject: 'no id' }),
    });
    const d = db();
    await runImport(d, [dir], noHooks);
    const again = await runImport(d, [dir], noHooks);
    expect(again.summary).toEqual({ imported: 0, duplicates: 2, failed: [] });
    expect(d.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(2);
  });

  test('keeps two different messages that share a Message-ID', async () => {
    const dir = mailbox({
      '1.eml': eml({ id: '<same@example.com>', subject: 'a', body: 'one' }),
      '2.eml': eml({ id: '<same@example.com>', subject: 'a', body: 'two' }),
    });
    expect((await runImport(db(), [dir], noHooks)).summary.imported).toBe(2);
  });

  test('threads by References whichever message comes first, and by subject for bare replies', async () => {
    const dir = mailbox({
      // Sorted by name: the reply is read before its parent.
      'a-reply.eml': eml({ id: '<r@x>', subject: 'Re: Plan', inReplyTo: '<p@x>', references: '<p@x>' }),
      'b-parent.eml': eml({ id: '<p@x>', subject: 'Plan', date: 'Sun, 29 Nov 2026 09:00:00 +0000' }),
      'e-bare.eml': eml({ id: '<b@x>', subject: 'RE: plan', date: 'Mon, 30 Nov 2026 09:00:00 +0000' }),
      'd-other.eml': eml({ id: '<o@x>', subject: 'Plan', date: 'Sun, 29 Nov 2026 12:00:00 +0000' }),
    });
    const d = db();
    await runImport(d, [dir], noHooks);
    const threads = d.prepare('SELECT thread_id, message_id FROM messages ORDER BY message_id').all() as {
      thread_id: number;
      message_id: string;
    }[];
    const t = Object.fromEntries(threads.map((r) => [r.message_id, r.thread_id]));
    expect(t['<r@x>']).toBe(t['<p@x>']);
    // A message without a reply prefix starts its own thread even with the same subject.
    expect(t['<o@x>']).not.toBe(t['<p@x>']);
    // The bare "RE:" reply joins the most recent thread with that subject.
    expect(t['<b@x>']).toBe(t['<o@x>']);
    const q = prepareQueries(d);
    const page = q.threads(null, 0, 10);
    expect(page.total).toBe(2);
    expect(page.threads.map((x) => x.count).sort()).toEqual([2, 2]);
  });

  test('merges two threads when a later message references both', async () => {
    const dir = mailbox({
      '1.eml': eml({ id: '<a@x>', subject: 'A' }),
      '2.eml': eml({ id: '<b@x>', subject: 'B' }),
      '3.eml': eml({ id: '<c@x>', subject: 'Re: A', references: '<a@x> <b@x>' }),
    });
    const d = db();
    await runImport(d, [dir], noHooks);
    expect(d.prepare('SELECT count(DISTINCT thread_id) FROM messages').pluck().get()).toBe(1);
    const page = prepareQueries(d).threads(null, 0, 10);
    expect(page.total).toBe(1);
    expect(page.threads[0]?.count).toBe(3);
  });

  test('stops when cancelled and keeps what was stored', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 500; i++)
      files[`${String(i).padStart(4, '0')}.eml`] = eml({ id: `<${i}@x>`, subject: `m${i}` });
    const dir = mailbox(files);
    const d = db();
    let seen = 0;
    const { summary, cancelled } = await runImport(d, [dir], {
      onProgress: () => {},
      isCancelled: () => ++seen > 250,
    });
    expect(cancelled).toBe(true);
    expect(summary.imported).toBe(250);
    expect(d.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(250);
  });

  test('reports progress with bytes that reach the total', async () => {
    const dir = mailbox({ '1.eml': eml({ subject: 'a' }), '2.eml': eml({ subject: 'b' }) });
    const seen: { bytesDone: number; bytesTotal: number; messages: number }[] = [];
    await runImport(db(), [dir], { onProgress: (c) => seen.push(c), isCancelled: () => false });
    const last = seen.at(-1);
    expect(last?.messages).toBe(2);
    expect(last?.bytesTotal).toBeGreaterThan(0);
    expect(last?.bytesDone).toBe(last?.bytesTotal);
  });
});
