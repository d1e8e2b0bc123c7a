// The people of `contacts`, counted by store.ts once per batch (migration 0032) as the insert trigger of 0029
// counted them per message: each address once per message, lower-cased and trimmed, a name winning over none
// and the first message's name over a later one's, things that are not addresses left out.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../../test/support/temp.ts';
import { openDatabase } from '../../db/open.ts';
import { parseMessage } from '../import/parse.ts';
import { prepareStore } from './store.ts';

const message = (n: number, from: string, to: string, cc?: string) =>
  Buffer.from(
    [
      `From: ${from}`,
      `To: ${to}`,
      ...(cc ? [`Cc: ${cc}`] : []),
      `Subject: Note ${n}`,
      'Date: Sun, 29 Nov 2026 10:00:00 +0000',
      `Message-ID: <c${n}@x>`,
      '',
      `Body ${n}.`,
      '',
    ].join('\r\n'),
  );

test('the people of a batch are counted once per message that names them, with the first name given', async () => {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  const store = prepareStore(db);
  const inbox = { name: 'Inbox', source: 'inbox' };
  const contacts = () => db.prepare('SELECT address, name, count FROM contacts ORDER BY address').all();
  const version = () => db.prepare('SELECT version FROM contacts_version').pluck().get() as number;
  const batch = async (messages: Buffer[]) => {
    const parsed = await Promise.all(messages.map((m) => parseMessage(m)));
    db.transaction(() => {
      for (const [i, p] of parsed.entries()) store.store(inbox, `file:${i}`, p);
      store.indexStored();
    })();
  };

  const before = version();
  await batch([
    // Ann twice in one message (From and Cc): once for it. Bo without a name first, then with one.
    message(1, 'ANN@X.example', 'bo@x.example', 'Ann Lee <ann@x.example>, undisclosed-recipients:;'),
    message(2, 'Bo Brown <bo@x.example>', 'Ann Other <ann@x.example>'),
    message(3, 'Cy <cy@x.example>', 'Bo Blue <bo@x.example>'),
  ]);
  expect(contacts()).toEqual([
    { address: 'ann@x.example', name: 'Ann Lee', count: 2 },
    { address: 'bo@x.example', name: 'Bo Brown', count: 3 },
    { address: 'cy@x.example', name: 'Cy', count: 1 },
  ]);
  expect(version()).toBeGreaterThan(before);

  // A later batch adds to the counts and keeps the names already known.
  const known = version();
  await batch([message(4, 'Bo Green <bo@x.example>', 'dee@x.example')]);
  expect(contacts()).toEqual([
    { address: 'ann@x.example', name: 'Ann Lee', count: 2 },
    { address: 'bo@x.example', name: 'Bo Brown', count: 4 },
    { address: 'cy@x.example', name: 'Cy', count: 1 },
    { address: 'dee@x.example', name: '', count: 1 },
  ]);
  expect(version()).toBeGreaterThan(known);

  // A duplicate stores nothing and counts nobody.
  await batch([message(4, 'Bo Green <bo@x.example>', 'dee@x.example')]);
  expect(contacts()).toContainEqual({ address: 'bo@x.example', name: 'Bo Brown', count: 4 });
  db.close();
});
