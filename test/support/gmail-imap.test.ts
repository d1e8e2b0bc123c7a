// The Gmail-like fixture itself (gmail-imap.ts) does what Google's IMAP extensions page says Gmail does, for
// what test/imap-gmail.test.ts relies on. Each test can fail if the fixture lies.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type GmailImap, startGmailImap } from './gmail-imap.ts';
import { eml } from './temp.ts';

let gmail: GmailImap;
beforeAll(async () => {
  gmail = await startGmailImap();
});
afterAll(() => gmail?.close());

/** Sends raw command lines (tagged a1, a2, …) and resolves with everything read until the last tag's answer. */
function raw(lines: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(gmail.port, gmail.host);
    let got = '';
    socket.on('data', (d) => {
      got += d.toString('utf8');
      if (new RegExp(`^a${lines.length} (OK|NO|BAD)`, 'm').test(got)) {
        socket.end();
        resolve(got);
      }
    });
    socket.on('error', reject);
    socket.write(lines.map((l, i) => `a${i + 1} ${l}\r\n`).join(''));
  });
}

describe('the Gmail-like IMAP fixture', () => {
  test('offers X-GM-EXT-1 and lists the [Gmail] mailboxes with their special use', async () => {
    const c = await gmail.client();
    try {
      expect(c.capabilities.has('X-GM-EXT-1')).toBe(true);
      const uses = Object.fromEntries((await c.list()).map((b) => [b.path, b.specialUse ?? null]));
      expect(uses).toMatchObject({
        INBOX: '\\Inbox',
        '[Gmail]/All Mail': '\\All',
        '[Gmail]/Drafts': '\\Drafts',
        '[Gmail]/Sent Mail': '\\Sent',
        '[Gmail]/Spam': '\\Junk',
        '[Gmail]/Starred': '\\Flagged',
        '[Gmail]/Trash': '\\Trash',
      });
      expect((await c.list()).find((b) => b.path === '[Gmail]')?.flags.has('\\Noselect')).toBe(true);
    } finally {
      await c.logout();
    }
  });

  test('gives labels, message and thread ids; a reply shares its thread', async () => {
    gmail.deliver(eml({ id: '<t1@example.com>', subject: 'Plan' }), ['\\Inbox', 'Work']);
    gmail.deliver(eml({ id: '<t2@example.com>', subject: 'Re: Plan', inReplyTo: '<t1@example.com>' }));
    const c = await gmail.client();
    try {
      await c.mailboxOpen('INBOX');
      const got = await c.fetchAll('1:*', { uid: true, labels: true, emailId: true, threadId: true });
      expect(got.map((m) => [...(m.labels ?? [])].sort())).toEqual([['Work', '\\Inbox'], ['\\Inbox']]);
      expect(got[0]?.emailId).not.toBe(got[1]?.emailId);
      expect(got[1]?.threadId).toBe(got[0]?.threadId);
    } finally {
      await c.logout();
    }
  });

  test('takes labels as atoms, quoted UTF-8 or modified UTF-7; taking \\Inbox off archives', async () => {
    const m = gmail.deliver(eml({ id: '<l@example.com>', subject: 'Labels' }));
    const uid = gmail.uidIn('INBOX', m);
    const answer = await raw([
      `LOGIN ${gmail.user} ${gmail.pass}`,
      'SELECT INBOX',
      `UID STORE ${uid} +X-GM-LABELS (Paid "Über wichtig" "&AMQ-rger")`,
      `UID STORE ${uid} -X-GM-LABELS (\\Inbox)`,
    ]);
    expect(answer).toMatch(/^a4 OK/m);
    expect([...m.labels].sort()).toEqual(['Paid', 'Ärger', 'Über wichtig']);
    expect(gmail.mailboxesOf(m)).toEqual(['[Gmail]/All Mail', 'Paid', 'Ärger', 'Über wichtig']);
    // Sent back in modified UTF-7, as Gmail does for a client that did not enable UTF8=ACCEPT.
    expect(answer).toMatch(/X-GM-LABELS \(Paid "&ANw-ber wichtig" &AMQ-rger\)/);
  });

  test('an expunge in INBOX archives, a move to Trash hides the message from All Mail', async () => {
    const a = gmail.deliver(eml({ id: '<x1@example.com>', subject: 'Archive me' }), ['\\Inbox', 'Work']);
    const b = gmail.deliver(eml({ id: '<x2@example.com>', subject: 'Bin me' }));
    const c = await gmail.client();
    try {
      await c.mailboxOpen('INBOX');
      const uidOf = async (id: string) =>
        (await c.search({ header: { 'message-id': id } }, { uid: true })) || [];
      expect(await c.messageDelete((await uidOf('<x1@example.com>')).join(','), { uid: true })).toBe(true);
      const moved = await c.messageMove((await uidOf('<x2@example.com>')).join(','), '[Gmail]/Trash', {
        uid: true,
      });
      expect(moved === false ? 0 : moved.uidMap?.size).toBe(1);
    } finally {
      await c.logout();
    }
    expect(gmail.mailboxesOf(a)).toEqual(['[Gmail]/All Mail', 'Work']);
    expect(gmail.mailboxesOf(b)).toEqual(['[Gmail]/Trash']);
  });

  test('a move from INBOX into All Mail archives, keeping the All Mail uid; a copy back to INBOX undoes it', async () => {
    const m = gmail.deliver(eml({ id: '<a1@example.com>', subject: 'Archive by move' }), ['\\Inbox', 'Work']);
    const inbox = gmail.uidIn('INBOX', m) as number;
    const all = gmail.uidIn('[Gmail]/All Mail', m) as number;
    const c = await gmail.client();
    try {
      await c.mailboxOpen('INBOX');
      const moved = await c.messageMove(String(inbox), '[Gmail]/All Mail', { uid: true });
      expect(moved === false ? null : moved.uidMap?.get(inbox)).toBe(all);
      expect(gmail.mailboxesOf(m)).toEqual(['[Gmail]/All Mail', 'Work']);
      await c.mailboxOpen('[Gmail]/All Mail');
      expect(await c.messageCopy(String(all), 'INBOX', { uid: true })).not.toBe(false);
    } finally {
      await c.logout();
    }
    expect(gmail.mailboxesOf(m)).toEqual(['INBOX', '[Gmail]/All Mail', 'Work']);
    expect(gmail.uidIn('[Gmail]/All Mail', m)).toBe(all);
  });

  test('a client in IDLE on INBOX hears of new mail', async () => {
    const c = await gmail.client();
    try {
      await c.mailboxOpen('INBOX');
      const before = c.mailbox === false ? 0 : c.mailbox.exists;
      const heard = new Promise<number>((resolve) =>
        c.on('exists', (e: { count: number }) => resolve(e.count)),
      );
      const idle = c.idle();
      await expect.poll(() => gmail.log.at(-1)).toBe('IDLE');
      gmail.deliver(eml({ id: '<new@example.com>', subject: 'New' }));
      expect(await heard).toBe(before + 1);
      await c.noop(); // ends the IDLE with DONE
      await idle;
    } finally {
      await c.logout();
    }
  });
});
