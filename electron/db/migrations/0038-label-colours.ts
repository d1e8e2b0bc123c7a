import type { Migration } from '../migrate.ts';

// The colour a person picked for a label (issue 29 §4). Kept only here, never written to the server: IMAP
// keywords have no colour, and Gmail's label colours are not reachable over IMAP. A name from a small palette,
// not a CSS value, so the renderer chooses the shade that keeps the chip's text readable in either theme.
export const m0038: Migration = {
  version: 38,
  name: 'label-colours',
  up(db) {
    db.exec(`
      CREATE TABLE label_colours (
        label_id INTEGER PRIMARY KEY REFERENCES labels(id) ON DELETE CASCADE,
        colour TEXT NOT NULL CHECK (colour IN ('grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink'))
      ) STRICT;
    `);
  },
};
