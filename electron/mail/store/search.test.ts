import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { projectRoot } from '../../app.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { userPlaces } from '../../files/safe-open.ts';
import { prepareImapStore } from '../imap/imap-store.ts';
import { runImport } from '../import/import-run.ts';
import { parseMessage } from '../import/parse.ts';
import {
  deadline,
  prepareMessageSearch,
  prepareSearch,
  type ReadCheck,
  SearchQueryError,
  searchTooSlow,
} from './search.ts';
import { prepareStore } from './store.ts';
import { prepareMailActions } from './undo.ts';

describe('search', () => {
  let search: ReturnType<typeof prepareSearch>;

  beforeAll(async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, '1.eml'),
      eml({ id: '<1@x>', subject: 'Invoice 1042', body: 'Please pay Herr Müller by Friday.' }),
    );
    writeFileSync(
      join(dir, '2.eml'),
      eml({
        id: '<2@x>',
        subject: 'Lunch',
        from: 'Carol <carol@example.org>',
        body: 'Conference lunch at noon',
      }),
    );
    writeFileSync(join(dir, '3.eml'), eml({ id: '<3@x>', subject: 'Привет', body: 'Встреча завтра' }));
    const db = openDatabase(join(dir, 'skimmer.db'));
    await runImport(db, [dir], { onProgress: () => {}, isCancelled: () => false });
    search = prepareSearch(db);
  });

  const subjects = (q: string) =>
    search(q, 50)
      .map((h) => h.subject)
      .sort();

  test.each([
    ['muller', ['Invoice 1042']],
    ['"pay herr"', ['Invoice 1042']],
    ['conf*', ['Lunch']],
    ['from:carol', ['Lunch']],
    ['subject:lunch OR subject:invoice', ['Invoice 1042', 'Lunch']],
    ['lunch NOT conference', []],
    ['встреча', ['Привет']],
    ['carol@example.org', ['Lunch']],
    ['NEAR(pay friday, 5)', ['Invoice 1042']],
    ['NEAR(pay friday, 1)', []],
  ])('%s finds %j', (q, expected) => {
    expect(subjects(q)).toEqual(expected);
  });

  test('returns thread ids, the sender and a snippet without markup', () => {
    const [hit] = search('friday', 5);
    expect(hit).toMatchObject({
      subject: 'Invoice 1042',
      from: 'Alice <alice@example.com>',
      messageId: '<1@x>',
    });
    expect(hit?.snippet).toContain('Friday');
    expect(hit?.threadId).toBeGreaterThan(0);
  });

  test('takes a stray quote literally instead of failing', () => {
    expect(subjects('"lunch')).toEqual(['Lunch']);
  });

  test('finds nothing, without an error, for a query of punctuation only', () => {
    expect(search('@@ ::', 5)).toEqual([]);
  });

  test('reads FTS syntax characters inside a word as text, never as syntax', () => {
    expect(subjects('lunch^ "noon" * NEAR')).toEqual([]);
    expect(subjects('from:carol@example.org')).toEqual(['Lunch']);
  });
});

// The mailbox of fixtures/search (its README says what each message is), as of 2026-03-10 12:00 UTC.
describe('search operators on a mailbox whose answers are known', () => {
  const now = Date.UTC(2026, 2, 10, 12);
  let db: Db;
  let search: ReturnType<typeof prepareSearch>;
  const idOf = (messageId: string) =>
    db.prepare('SELECT id FROM messages WHERE message_id = ?').pluck().get(messageId) as number;

  beforeAll(async () => {
    const fixtures = join(projectRoot, 'fixtures', 'search');
    const dir = tempDir();
    db = openDatabase(join(dir, 'skimmer.db'));
    const local = join(fixtures, 'local');
    const imported = await runImport(
      db,
      ['Inbox', 'Projects', 'Spam'].map((f) => join(local, f)),
      { onProgress: () => {}, isCancelled: () => false, places: userPlaces({ extraRoots: [fixtures] }) },
    );
    expect(imported.summary).toMatchObject({ imported: 9, failed: [] });

    // An IMAP account's mail, stored as a sync stores it: locations with the server's flags.
    const accountId = Number(
      db.prepare("INSERT INTO accounts (kind, name) VALUES ('imap', 'Work')").run().lastInsertRowid,
    );
    const imap = prepareImapStore(db, accountId);
    const store = prepareStore(db);
    const inbox = imap.folder('INBOX', 'Inbox', null);
    const clients = imap.folder('Clients', 'Clients', null);
    const sent = imap.folder('Gesendet', 'Gesendet', '\\Sent'); // a Sent found by its special use alone
    const storeImap = async (folder: number, uid: number, file: string, flags: string[]) => {
      const parsed = await parseMessage(readFileSync(join(fixtures, 'imap', file)));
      const id = db.transaction(() => {
        const stored = store.storeInFolder(folder, `imap:${uid}`, parsed);
        store.indexStored();
        return stored.id;
      })();
      imap.linkNew(folder, uid, id, flags);
      return id;
    };
    await storeImap(inbox, 1, 'INBOX/10-starred.eml', ['\\Flagged', '\\Seen']);
    const review = await storeImap(inbox, 2, 'INBOX/11-client-review.eml', []);
    imap.link(clients, 1, review, []);
    await storeImap(sent, 1, 'Sent/12-proposal.eml', ['\\Seen']);

    const actions = prepareMailActions(db);
    actions.markRead([idOf('<invoice-1042-paid@example.com>'), idOf('<budget@example.com>')], true);
    actions.label([idOf('<kickoff@example.net>')], ['Project X'], []);
    actions.moveToSpecial([idOf('<lunch@example.org>')], 'archive');
    actions.moveToSpecial([idOf('<newsletter@shop.example>')], 'trash');
    search = prepareSearch(db, () => now);
  });

  const subjects = (q: string) => search(q, 50).map((h) => h.subject);

  test.each([
    // words, phrases, prefixes and columns
    ['invoice', ['Re: Invoice 1042', 'Undated note']],
    ['"budget looks"', ['Re: Project X kickoff']],
    ['budg*', ['Re: Project X kickoff', 'Budget 2026']],
    ['subject:invoice', ['Re: Invoice 1042']],
    ['body:budget', ['Re: Project X kickoff', 'Budget 2026']],
    ['from:"Ana Müller"', ['Re: Project X kickoff', 'Invoice 1042']],
    ['from:"ana muller"', ['Re: Project X kickoff', 'Invoice 1042']],
    ['to:carol', ['Invoice 1042']],
    ['cc:carol', ['Invoice 1042']],
    ['cc:"Carol Diaz"', ['Invoice 1042']],
    ['cc:ana', ['Project X kickoff']],
    ['cc:dan', []],
    ['cc:car*', ['Invoice 1042']],
    ['carol@example.org', ['Lunch on Friday', 'Invoice 1042']],
    // flags and attachments
    [
      'is:unread',
      ['Client review', 'Re: Project X kickoff', 'Lunch on Friday', 'Invoice 1042', 'Undated note'],
    ],
    ['is:read', ['Sent proposal', 'Quarterly report', 'Re: Invoice 1042', 'Budget 2026']],
    ['is:starred', ['Quarterly report']],
    ['has:attachment', ['Invoice 1042', 'Budget 2026']],
    // dates: after: from the start of its day, before: up to the start of its day
    ['after:2026-03-01', ['Sent proposal', 'Client review', 'Quarterly report', 'Re: Project X kickoff']],
    ['before:2026/03/01', ['Lunch on Friday', 'Re: Invoice 1042', 'Budget 2026']],
    ['after:2026-01-12 before:2026-01-13', ['Re: Invoice 1042']],
    ['after:2026/1/12 before:2026/1/12', []],
    ['newer_than:5d', ['Sent proposal', 'Client review', 'Quarterly report']],
    ['older_than:6w', ['Re: Invoice 1042', 'Budget 2026']],
    ['newer_than:1y older_than:10w', ['Budget 2026']],
    // labels and places
    ['label:"Project X"', ['Project X kickoff']],
    ['label:project-x', ['Project X kickoff']],
    [
      'in:inbox',
      ['Client review', 'Quarterly report', 'Re: Project X kickoff', 'Re: Invoice 1042', 'Undated note'],
    ],
    ['in:trash', ['Weekly newsletter']],
    ['in:spam', ['You won a prize']],
    ['in:sent', ['Sent proposal']],
    ['in:archive', ['Lunch on Friday']],
    ['in:drafts', []],
    ['in:Projects', ['Budget 2026']],
    ['in:clients', ['Client review']],
    // Trash and Spam only when asked for
    ['invoice in:anywhere', ['You won a prize', 'Weekly newsletter', 'Re: Invoice 1042', 'Undated note']],
    ['invoice -in:inbox', ['You won a prize', 'Weekly newsletter']],
    // negation
    [
      '-invoice',
      [
        'Sent proposal',
        'Client review',
        'Quarterly report',
        'Re: Project X kickoff',
        'Lunch on Friday',
        'Budget 2026',
      ],
    ],
    ['NOT is:unread NOT in:sent', ['Quarterly report', 'Re: Invoice 1042', 'Budget 2026']],
    ['from:ana -subject:invoice', ['Re: Project X kickoff']],
    // combinations
    ['is:unread has:attachment', ['Invoice 1042']],
    ['invoice -is:read', ['Invoice 1042', 'Undated note']],
    ['lunch OR budget', ['Re: Project X kickoff', 'Lunch on Friday', 'Budget 2026']],
    ['is:starred OR label:"Project X"', ['Quarterly report', 'Project X kickoff']],
    ['(is:starred OR has:attachment) after:2026-01-01', ['Quarterly report', 'Invoice 1042']],
    ['{from:erin from:fay} newer_than:1y', ['Quarterly report', 'Budget 2026']],
    ['subject:(kickoff OR lunch) is:unread', ['Re: Project X kickoff', 'Lunch on Friday']],
    ['budget -label:"Project X" in:inbox', ['Re: Project X kickoff']],
  ])('%s finds %j, newest first', (q, expected) => {
    expect(subjects(q)).toEqual(expected);
  });

  test('binds OR tighter than AND, as Gmail does', () => {
    // (from:ana OR from:dan) AND kickoff; FTS5 alone would read from:ana OR (from:dan AND kickoff).
    expect(subjects('from:ana OR from:dan kickoff')).toEqual(['Re: Project X kickoff']);
  });

  test('gives one hit per thread: its newest matching message', () => {
    const [reply] = search('kickoff', 50);
    expect(reply).toMatchObject({
      id: idOf('<kickoff-reply@example.com>'),
      messageId: '<kickoff-reply@example.com>',
      subject: 'Re: Project X kickoff',
    });
    // The label is on the first message only: that one is the hit, in the same thread.
    const [labelled] = search('label:"Project X"', 50);
    expect(labelled).toMatchObject({ id: idOf('<kickoff@example.net>'), threadId: reply?.threadId });
  });

  test('cuts a snippet around the words, or shows the start of the body for operators alone', () => {
    expect(search('budget', 5).map((h) => h.snippet)).toEqual([
      'The budget looks fine.',
      'The budget draft is attached.',
    ]);
    expect(search('is:starred', 5)[0]?.snippet).toBe('The numbers for the quarter.');
  });

  test('stops at the limit, newest threads first', () => {
    expect(search('in:anywhere', 2).map((h) => h.subject)).toEqual(['Sent proposal', 'Client review']);
  });

  test('gives every matching message to a message search, newest first', () => {
    const messageIds = prepareMessageSearch(db, () => now);
    expect(messageIds('invoice', 50)).toEqual([
      idOf('<invoice-1042-paid@example.com>'),
      idOf('<invoice-1042@example.com>'),
      idOf('<undated@example.com>'),
    ]);
  });

  test.each([
    ['is:unread foo:bar', /search operator foo: \(in foo:bar\)/],
    ['has:drive', /has:drive/],
    ['label:Nope', /There is no label named "Nope"\./],
    ['in:Nowhere', /There is no folder named "Nowhere"\./],
    ['after:2026-02-30', /"2026-02-30"/],
  ])('refuses %s with a sentence naming it', (q, sentence) => {
    expect(() => search(q, 5)).toThrow(SearchQueryError);
    expect(() => search(q, 5)).toThrow(sentence);
  });
});

// Red-team items 8 and 10: a search stops where its check says (a deadline, a newer search), between the rows it
// reads and inside SQLite, and a control character is a sentence, never an SqliteError.
describe('a search that has to stop', () => {
  let db: Db;
  let search: ReturnType<typeof prepareSearch>;
  let messageIds: ReturnType<typeof prepareMessageSearch>;

  beforeAll(async () => {
    const dir = tempDir();
    // 70 messages, so a walk over them passes ids 32 and 64, where SQLite asks the check (skimmer_pace).
    for (let n = 1; n <= 70; n++) {
      writeFileSync(
        join(dir, `${n}.eml`),
        eml({
          id: `<${n}@x>`,
          subject: `Meeting ${n}`,
          date: new Date(Date.UTC(2026, 0, 1, n)).toUTCString(),
          body: n % 2 ? 'The budget meeting moves.' : 'Meeting notes attached.',
        }),
      );
    }
    db = openDatabase(join(dir, 'skimmer.db'));
    await runImport(db, [dir], { onProgress: () => {}, isCancelled: () => false });
    search = prepareSearch(db);
    messageIds = prepareMessageSearch(db);
  });

  // A check that lets `calls` checks pass, then stops the read as its deadline would.
  const stopsAfter = (calls: number) => {
    const asked = { n: 0 };
    const check: ReadCheck = () => {
      asked.n++;
      if (asked.n > calls) throw searchTooSlow(2000);
    };
    return { check, asked };
  };

  test.each([
    ['meeting', 'newest'],
    ['meeting', 'relevance'],
    ['is:unread', 'newest'],
    ['budget OR notes', 'relevance'],
  ] as const)('%s (%s) stops at the check after its first, then the next search answers', (q, order) => {
    const { check, asked } = stopsAfter(1);
    expect(() => search(q, 50, order, check)).toThrow(
      expect.objectContaining({ reason: 'too_slow', message: expect.stringContaining('2 s') }),
    );
    expect(asked.n).toBe(2);
    expect(search(q, 100, order)).toHaveLength(70);
  });

  test('a message search is stopped inside SQLite, where it reads every match before it sorts them', () => {
    const { check, asked } = stopsAfter(1);
    expect(() => messageIds('meeting', 1000, check)).toThrow(SearchQueryError);
    expect(asked.n).toBe(2);
    expect(messageIds('meeting', 1000)).toHaveLength(70);
  });

  test('a NOT with no word beside it (a subquery over every match) is stopped inside SQLite too', () => {
    const { check, asked } = stopsAfter(1);
    expect(() => search('is:unread -notes', 50, 'newest', check)).toThrow(SearchQueryError);
    expect(asked.n).toBe(2);
    expect(search('is:unread -notes', 100)).toHaveLength(35);
  });

  test('a deadline stops the read the first time it is asked past it, in a sentence', () => {
    // Made at 400, so due at 1400: asked at 800 and 1200, it stops at 1600.
    let t = 0;
    const check = deadline(1000, () => {
      t += 400;
      return t;
    });
    expect(() => search('meeting', 50, 'newest', check)).toThrow(
      'That search took longer than 1 s and was stopped. Add a word, or from:, after: or in:, to narrow it.',
    );
    expect(t).toBe(1600);
  });

  test.each(['to:\u0000budget', 'budget\u0000', 'NEAR(budget \u0000meeting)'])(
    '%j is a SearchQueryError naming the character, not an SqliteError',
    (q) => {
      expect(() => search(q, 5)).toThrow(SearchQueryError);
      expect(() => search(q, 5)).toThrow('A search cannot hold control characters; this one has U+0000');
      expect(() => messageIds(q, 5)).toThrow(SearchQueryError);
    },
  );
});
