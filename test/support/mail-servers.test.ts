// The harness itself: a real Dovecot and a real SMTP server on loopback do what the sync and send
// tests will rely on. Every test here can fail if the harness lies.
import { connect } from 'node:net';
import { ImapFlow } from 'imapflow';
import { createTransport } from 'nodemailer';
import { afterAll, describe, expect, test } from 'vitest';
import { liveProcessesInGroup, startDovecot } from './dovecot.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { eml } from './temp.ts';

const dovecot = await startDovecot({
  users: [
    { user: 'alice@example.com', pass: 'alice-pass' },
    { user: 'bob@example.com', pass: 'bob-pass' },
  ],
});
afterAll(() => dovecot.stop());

async function subjectsOf(client: ImapFlow, mailbox: string): Promise<{ uid: number; subject: string }[]> {
  const lock = await client.getMailboxLock(mailbox);
  try {
    const out: { uid: number; subject: string }[] = [];
    for await (const m of client.fetch('1:*', { uid: true, envelope: true })) {
      out.push({ uid: m.uid, subject: m.envelope?.subject ?? '' });
    }
    return out;
  } finally {
    lock.release();
  }
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });

describe('Dovecot on loopback', () => {
  test('logs in and offers CONDSTORE, QRESYNC, IDLE, MOVE, SPECIAL-USE and UIDPLUS', async () => {
    expect(dovecot.port).toBeGreaterThan(0);
    const c = await dovecot.client();
    try {
      expect(c.authenticated).toBeTruthy();
      for (const cap of ['CONDSTORE', 'QRESYNC', 'IDLE', 'MOVE', 'SPECIAL-USE', 'UIDPLUS']) {
        expect(c.capabilities.has(cap), cap).toBe(true);
      }
    } finally {
      await c.logout();
    }
  });

  test('refuses a wrong password', async () => {
    const c = new ImapFlow({
      ...dovecot.imapOptions(),
      auth: { user: 'alice@example.com', pass: 'bob-pass' },
    });
    await expect(c.connect()).rejects.toMatchObject({ authenticationFailed: true });
  });

  test('keeps each user in their own mailbox', async () => {
    await dovecot.append('INBOX', [eml({ subject: 'for bob only' })], [], 'bob@example.com');
    const c = await dovecot.client('alice@example.com');
    try {
      expect((await subjectsOf(c, 'INBOX')).map((m) => m.subject)).not.toContain('for bob only');
    } finally {
      await c.logout();
    }
  });

  test('appends messages in order and fetches them back by UID with their subjects', async () => {
    const uids = await dovecot.append(
      'Archive',
      ['first', 'second', 'third'].map((s) => eml({ subject: s })),
      ['\\Seen'],
    );
    expect(uids).toEqual([...uids].sort((a, b) => a - b));
    expect(new Set(uids).size).toBe(3);
    const c = await dovecot.client();
    try {
      expect(await subjectsOf(c, 'Archive')).toEqual([
        { uid: uids[0], subject: 'first' },
        { uid: uids[1], subject: 'second' },
        { uid: uids[2], subject: 'third' },
      ]);
    } finally {
      await c.logout();
    }
  });

  test('lists Sent, Drafts, Archive and Trash with their special-use flags, subscribed', async () => {
    const c = await dovecot.client();
    try {
      const boxes = await c.list();
      const byPath = Object.fromEntries(boxes.map((b) => [b.path, { use: b.specialUse, sub: b.subscribed }]));
      expect(byPath).toMatchObject({
        INBOX: { use: '\\Inbox' },
        Sent: { use: '\\Sent', sub: true },
        Drafts: { use: '\\Drafts', sub: true },
        Archive: { use: '\\Archive', sub: true },
        Trash: { use: '\\Trash', sub: true },
      });
    } finally {
      await c.logout();
    }
  });

  test('seedMaildir puts messages in a new child mailbox with UIDs in the given order', async () => {
    const subjects = Array.from({ length: 30 }, (_, i) => `seeded ${i}`);
    // Two calls in the same second: the second batch must neither overwrite nor overtake the first.
    for (const batch of [subjects.slice(0, 15), subjects.slice(15)]) {
      dovecot.seedMaildir(
        'alice@example.com',
        'Seeded.Deep',
        batch.map((s) => eml({ subject: s })),
        ['\\Seen'],
      );
    }
    const c = await dovecot.client();
    try {
      const got = await subjectsOf(c, 'Seeded.Deep');
      expect(got.map((m) => m.subject)).toEqual(subjects);
      expect(got.map((m) => m.uid)).toEqual(subjects.map((_, i) => i + 1));
      const lock = await c.getMailboxLock('Seeded.Deep');
      try {
        const flags = await c.fetchOne('1', { flags: true });
        expect(flags && [...(flags.flags ?? [])]).toContain('\\Seen');
      } finally {
        lock.release();
      }
    } finally {
      await c.logout();
    }
  });

  test('kill() drops connections; start() comes back on the same port with the same mail', async () => {
    const uids = await dovecot.append('Trash', [eml({ subject: 'survives a crash' })]);
    const port = dovecot.port;
    const watcher = await dovecot.client();
    await watcher.mailboxOpen('Trash');
    const dropped = new Promise<void>((resolve) => watcher.once('close', () => resolve()));

    await dovecot.kill();
    await dropped;
    expect(await refused(port)).toBe(true);

    await dovecot.start();
    expect(dovecot.port).toBe(port);
    const c = await dovecot.client();
    try {
      expect(await subjectsOf(c, 'Trash')).toEqual([{ uid: uids[0], subject: 'survives a crash' }]);
    } finally {
      await c.logout();
    }
  });

  test('resetUidValidity gives the mailbox a new UIDVALIDITY and keeps its messages', async () => {
    await dovecot.append('Drafts', [eml({ subject: 'd1' }), eml({ subject: 'd2' })]);
    const c = await dovecot.client();
    try {
      const before = await c.status('Drafts', { messages: true, uidValidity: true });
      await dovecot.resetUidValidity('Drafts');
      const after = await c.status('Drafts', { messages: true, uidValidity: true });
      expect(before && after).toBeTruthy();
      if (!before || !after) return;
      expect(after.uidValidity).not.toBe(before.uidValidity);
      expect(after.messages).toBe(2);
      expect((await subjectsOf(c, 'Drafts')).map((m) => m.subject)).toEqual(['d1', 'd2']);
    } finally {
      await c.logout();
    }
  });

  test('a second instance runs at once on another port, and stop() leaves no process behind', async () => {
    const other = await startDovecot();
    expect(other.port).not.toBe(dovecot.port);
    await other.append('INBOX', [eml({ subject: 'only on the other server' })]);
    const c = await other.client();
    try {
      expect((await subjectsOf(c, 'INBOX')).map((m) => m.subject)).toEqual(['only on the other server']);
    } finally {
      await c.logout();
    }

    const pid = other.pid;
    expect(pid).toBeDefined();
    await other.stop();
    expect(other.pid).toBeUndefined();
    expect(liveProcessesInGroup(pid ?? 0)).toEqual([]);
    expect(await refused(other.port)).toBe(true);
    expect(await refused(dovecot.port)).toBe(false);
  });
});

describe('SMTP sink on loopback', () => {
  const user = 'alice@example.com';
  const pass = 'smtp-pass';

  test('receives a message sent by a pooled nodemailer with its envelope', async () => {
    const sink = await startSmtpSink({ user, pass });
    const transport = createTransport({
      host: sink.host,
      port: sink.port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      auth: { user, pass },
    });
    try {
      await transport.sendMail({
        from: 'Alice <alice@example.com>',
        to: 'Bob <bob@example.com>',
        bcc: 'carol@example.com',
        subject: 'Lunch on Friday?',
        text: 'Shall we?',
      });
      const [got] = await sink.waitFor(1);
      if (!got) throw new Error('waitFor resolved without a message');
      expect(got.from).toBe('alice@example.com');
      expect(got.to).toEqual(['bob@example.com', 'carol@example.com']);
      expect(got.user).toBe(user);
      const raw = got.raw.toString();
      expect(raw).toContain('Subject: Lunch on Friday?');
      expect(raw).not.toContain('carol@example.com'); // Bcc is envelope only
    } finally {
      transport.close();
      await sink.close();
    }
  });

  test('refuses bad credentials with 535 and accepts nothing', async () => {
    const sink = await startSmtpSink({ user, pass });
    const transport = createTransport({
      host: sink.host,
      port: sink.port,
      secure: false,
      ignoreTLS: true,
      auth: { user, pass: 'wrong' },
    });
    try {
      await expect(
        transport.sendMail({ from: user, to: 'bob@example.com', subject: 'x', text: 'x' }),
      ).rejects.toMatchObject({ responseCode: 535 });
      expect(sink.received).toEqual([]);
    } finally {
      transport.close();
      await sink.close();
    }
  });

  test('refuses mail without AUTH when a user is set', async () => {
    const sink = await startSmtpSink({ user, pass });
    const transport = createTransport({ host: sink.host, port: sink.port, secure: false, ignoreTLS: true });
    try {
      await expect(
        transport.sendMail({ from: user, to: 'bob@example.com', subject: 'x', text: 'x' }),
      ).rejects.toMatchObject({ responseCode: 530 });
      expect(sink.received).toEqual([]);
    } finally {
      transport.close();
      await sink.close();
    }
  });
});
