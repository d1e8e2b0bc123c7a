import type { Migration } from '../migrate.ts';

// A notice on a stored answer (DESIGN §6): part of it could not be read (an undecodable frame, an orphan
// fragment, a dropped tool call) but the turn went on to its end. The code (`malformed_stream`) sits on the
// answer's message, beside `outcome`, so a reloaded conversation still shows the answer as marked.
export const m0023: Migration = {
  version: 23,
  name: 'turn-notices',
  up(db) {
    db.exec('ALTER TABLE conversation_messages ADD COLUMN notice_code TEXT;');
  },
};
