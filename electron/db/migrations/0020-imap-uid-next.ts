import type { Migration } from '../migrate.ts';

// Incremental IMAP sync with QRESYNC (issue 5, RFC 7162 §3.2.5): besides UIDVALIDITY and HIGHESTMODSEQ, a folder
// remembers the UIDNEXT its last completed sync saw, so the next one asks only for the uids from there on. A
// folder synced before this migration has none and is synced the long way once (electron/mail/imap/imap-sync.ts).
export const m0020: Migration = {
  version: 20,
  name: 'imap-uid-next',
  up(db) {
    db.exec('ALTER TABLE imap_folders ADD COLUMN uid_next INTEGER');
  },
};
