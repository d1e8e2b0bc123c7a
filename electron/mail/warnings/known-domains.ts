// "A domain you have real mail from" (DESIGN §11, "Warnings"), read from your mailbox:
// - trusted (never called a look-alike, and compared against): the domains of your own addresses (identities
//   and the accounts' logins) and every domain you wrote to (To or Cc of a message from one of your addresses,
//   or of a message in a Sent folder);
// - known (compared against only): a domain from which at least `receivedToKnow` messages are stored that
//   carry no lookalike and no authentication warning. Mail that is itself suspect never makes its domain
//   known, so a look-alike that keeps writing stays a look-alike.
import type { Address, MessageWarning } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareIdentities } from '../identities.ts';
import { folderPlace } from '../store/folder-places.ts';
import { domainOf, KnownDomains, registrable } from './lookalike.ts';

const receivedToKnow = 3;

/** What storing a message teaches: who wrote it and to whom, and whether it was suspect. */
export type StoredMail = { folderId: number; from: Address; to: readonly Address[]; cc: readonly Address[] };

export type DomainBook = {
  known: KnownDomains;
  /** Counts a message just stored, with its warnings, so the next message of the same run sees it. */
  note(m: StoredMail, warnings: readonly MessageWarning[]): void;
};

const suspect = (warnings: readonly MessageWarning[]) =>
  warnings.some((w) => w.kind === 'lookalike' || w.kind === 'authentication');

export function loadDomainBook(db: Db): DomainBook {
  const yours = new Set(
    prepareIdentities(db)
      .list()
      .map((i) => i.address),
  );
  type FolderRow = {
    id: number;
    name: string;
    source: string;
    special_use: string | null;
    path: string | null;
  };
  const folderColumns = `SELECT f.id, f.name, f.source, i.special_use, i.path
    FROM folders f LEFT JOIN imap_folders i ON i.folder_id = f.id`;
  const placeOf = (f: FolderRow) =>
    folderPlace({ name: f.name, source: f.source, specialUse: f.special_use, path: f.path });
  const sentFolders = new Map<number, boolean>(
    db
      .prepare<[], FolderRow>(folderColumns)
      .all()
      .map((f) => [f.id, placeOf(f) === 'sent']),
  );
  const folderById = db.prepare<[number], FolderRow>(`${folderColumns} WHERE f.id = ?`);
  // A folder made during this run (an imported Sent.mbox) is looked up when its first message is stored.
  const isSent = (folderId: number): boolean => {
    let sent = sentFolders.get(folderId);
    if (sent === undefined) {
      const f = folderById.get(folderId);
      sent = f ? placeOf(f) === 'sent' : false;
      sentFolders.set(folderId, sent);
    }
    return sent;
  };
  const fromYou = (m: StoredMail) => yours.has(m.from.address.toLowerCase()) || isSent(m.folderId);

  const known = new KnownDomains();
  for (const address of yours) {
    const domain = domainOf(address);
    if (domain) known.add(domain, true);
  }
  const wroteTo = (m: { to: readonly Address[]; cc: readonly Address[] }) => {
    for (const a of [...m.to, ...m.cc]) {
      const domain = domainOf(a.address);
      if (domain) known.add(domain, true);
    }
  };
  const sent = db.prepare<[string, string], { to_json: string; cc_json: string }>(
    `SELECT to_json, cc_json FROM messages
      WHERE lower(from_addr) IN (SELECT value FROM json_each(?)) OR folder_id IN (SELECT value FROM json_each(?))`,
  );
  const sentIds = [...sentFolders].flatMap(([id, isSentFolder]) => (isSentFolder ? [id] : []));
  for (const row of sent.iterate(JSON.stringify([...yours]), JSON.stringify(sentIds))) {
    wroteTo({ to: JSON.parse(row.to_json) as Address[], cc: JSON.parse(row.cc_json) as Address[] });
  }

  // Received mail, by registrable domain; what a warning marks suspect is left out.
  const counts = new Map<string, number>();
  const received = db.prepare<[], { domain: string; n: number }>(
    `SELECT lower(substr(m.from_addr, instr(m.from_addr, '@') + 1)) AS domain, count(*) AS n
       FROM messages m LEFT JOIN message_warnings w ON w.message_id = m.id
      WHERE instr(m.from_addr, '@') > 0
        AND (w.warnings_json IS NULL OR (w.warnings_json NOT LIKE '%"kind":"lookalike"%'
             AND w.warnings_json NOT LIKE '%"kind":"authentication"%'))
      GROUP BY domain`,
  );
  const count = (domain: string, n: number) => {
    const base = registrable(domain);
    const total = (counts.get(base) ?? 0) + n;
    counts.set(base, total);
    if (total >= receivedToKnow) known.add(base, false);
  };
  for (const row of received.iterate()) if (row.domain.includes('.')) count(row.domain, row.n);

  return {
    known,
    note(m, warnings) {
      if (fromYou(m)) wroteTo(m);
      const domain = domainOf(m.from.address);
      if (domain && !suspect(warnings)) count(domain, 1);
    },
  };
}
