import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
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

// Each message with its read state, star and the folder it is in.
const stored = (d: ReturnType<typeof db>) =>
  d
    .prepare(
      `SELECT m.message_id, m.unread, m.starred, f.name AS folder, f.source
         FROM messages m JOIN folders f ON f.id = m.folder_id ORDER BY m.message_id`,
    )
    .all();

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

  // A Maildir keeps a message's state in its file name (https://cr.yp.to/proto/maildir.html): S seen, R replied,
  // T trashed, F flagged. Trashed mail goes to Skimmer's own Trash for mail on this computer (undo.ts's `skimmer:trash`).
  test('imports a Maildir file named S as read, T into the Trash, and adds nothing the second time', async () => {
    const dir = tempDir();
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(dir, sub));
    const files: Record<string, string> = {
      'cur/1.host:2,S': 'seen',
      'cur/2.host:2,RS': 'replied',
      'cur/3.host:2,ST': 'trashed',
      'cur/4.host:2,FT': 'flagged-trashed',
      'cur/5.host:2,': 'unseen',
      'new/6.host': 'new',
    };
    for (const [path, id] of Object.entries(files))
      writeFileSync(join(dir, path), eml({ id: `<${id}@example.com>`, subject: id }));
    const d = db();
    expect((await runImport(d, [dir], noHooks)).summary).toEqual({ imported: 6, duplicates: 0, failed: [] });
    expect(stored(d)).toEqual([
      {
        message_id: '<flagged-trashed@example.com>',
        unread: 1,
        starred: 1,
        folder: 'Trash',
        source: 'skimmer:trash',
      },
      { message_id: '<new@example.com>', unread: 1, starred: 0, folder: basename(dir), source: dir },
      { message_id: '<replied@example.com>', unread: 0, starred: 0, folder: basename(dir), source: dir },
      { message_id: '<seen@example.com>', unread: 0, starred: 0, folder: basename(dir), source: dir },
      {
        message_id: '<trashed@example.com>',
        unread: 0,
        starred: 0,
        folder: 'Trash',
        source: 'skimmer:trash',
      },
      { message_id: '<unseen@example.com>', unread: 1, starred: 0, folder: basename(dir), source: dir },
    ]);
    // The Trash is the place the app's own Trash action uses: `in:trash` and the Trash view list them.
    const trash = prepareQueries(d)
      .folders()
      .find((f) => f.name === 'Trash');
    expect(trash?.place).toBe('trash');
    // Read again after the user changed something: the same mail adds nothing, and what the user did stands.
    d.prepare("UPDATE messages SET unread = 1 WHERE message_id = '<seen@example.com>'").run();
    expect((await runImport(d, [dir], noHooks)).summary).toEqual({ imported: 0, duplicates: 6, failed: [] });
    expect(
      d.prepare("SELECT unread FROM messages WHERE message_id = '<seen@example.com>'").pluck().get(),
    ).toBe(1);
    expect(d.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(6);
  });

  // mbox keeps it in the message's own headers: Status (R read, O old: seen as new once, not read), X-Status
  // (A answered, F flagged, D deleted), and Thunderbird's X-Mozilla-Status, a hex bitfield (0x0001 read,
  // 0x0002 replied, 0x0004 flagged, 0x0008 deleted), which Thunderbird keeps current and so wins over the others.
  test('imports an mbox by its Status, X-Status and X-Mozilla-Status headers, and adds nothing the second time', async () => {
    const message = (id: string, headers: string[]) =>
      [
        `From ${id}@example.com Sun Nov 29 10:00:00 2026`,
        ...eml({ id: `<${id}@example.com>`, subject: id })
          .split('\r\n')
          .flatMap((l, i) => (i === 0 ? [...headers, l] : [l])),
      ].join('\n');
    const dir = mailbox({
      'Inbox.mbox': [
        message('read-old', ['Status: RO']),
        message('old', ['Status: O']),
        message('none', []),
        message('flagged-answered', ['Status: RO', 'X-Status: AF']),
        message('deleted', ['Status: O', 'X-Status: D']),
        message('moz-read', ['X-Mozilla-Status: 0001']),
        message('moz-replied-flagged', ['X-Mozilla-Status: 0006']),
        message('moz-expunged', ['X-Mozilla-Status: 0009']),
        // Thunderbird's own header is what it keeps current: it says unread here, whatever Status says.
        message('moz-unread', ['Status: RO', 'X-Status: F', 'X-Mozilla-Status: 0000']),
      ].join('\n'),
    });
    const inbox = join(dir, 'Inbox.mbox');
    const d = db();
    expect((await runImport(d, [dir], noHooks)).summary).toEqual({ imported: 9, duplicates: 0, failed: [] });
    expect(stored(d)).toEqual([
      {
        message_id: '<deleted@example.com>',
        unread: 1,
        starred: 0,
        folder: 'Trash',
        source: 'skimmer:trash',
      },
      { message_id: '<flagged-answered@example.com>', unread: 0, starred: 1, folder: 'Inbox', source: inbox },
      {
        message_id: '<moz-expunged@example.com>',
        unread: 0,
        starred: 0,
        folder: 'Trash',
        source: 'skimmer:trash',
      },
      { message_id: '<moz-read@example.com>', unread: 0, starred: 0, folder: 'Inbox', source: inbox },
      {
        message_id: '<moz-replied-flagged@example.com>',
        unread: 1,
        starred: 1,
        folder: 'Inbox',
        source: inbox,
      },
      { message_id: '<moz-unread@example.com>', unread: 1, starred: 0, folder: 'Inbox', source: inbox },
      { message_id: '<none@example.com>', unread: 1, starred: 0, folder: 'Inbox', source: inbox },
      { message_id: '<old@example.com>', unread: 1, starred: 0, folder: 'Inbox', source: inbox },
      { message_id: '<read-old@example.com>', unread: 0, starred: 0, folder: 'Inbox', source: inbox },
    ]);
    expect((await runImport(d, [dir], noHooks)).summary).toEqual({ imported: 0, duplicates: 9, failed: [] });
    expect(d.prepare('SELECT count(*) FROM messages').pluck().get()).toBe(9);
  });

  // The file name is where a Maildir client keeps the state, so headers an mbox left inside a file are stale there.
  test("takes a Maildir file's state from its name, not from Status headers inside it", async () => {
    const dir = tempDir();
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(join(dir, sub));
    const withStatus = (id: string) =>
      `Status: RO\r\nX-Status: FD\r\n${eml({ id: `<${id}@example.com>`, subject: id })}`;
    writeFileSync(join(dir, 'cur', '1.host:2,'), withStatus('named-unseen'));
    writeFileSync(join(dir, 'new', '2.host'), withStatus('new'));
    const d = db();
    await runImport(d, [dir], noHooks);
    expect(stored(d)).toEqual([
      { message_id: '<named-unseen@example.com>', unread: 1, starred: 0, folder: basename(dir), source: dir },
      { message_id: '<new@example.com>', unread: 1, starred: 0, folder: basename(dir), source: dir },
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
