import type { Migration } from '../migrate.ts';

// What a service charges, when the user says (issue 6: a triage estimate gives "input tokens from the message
// sizes and the service's price if the user entered one"): US dollars per million input tokens. Skimmer never
// looks a price up; without one, the estimate gives tokens and time only.
export const m0019: Migration = {
  version: 19,
  name: 'service-prices',
  up(db) {
    db.exec(
      'ALTER TABLE services ADD COLUMN input_price REAL CHECK (input_price IS NULL OR (input_price >= 0 AND input_price <= 10000))',
    );
  },
};
