import type { Migration } from '../migrate.ts';

// Number 30 was set aside for the folder list (issue 16), which needed no migration; versions run without a
// gap (migrate.ts counts them by position), so it is an empty step.
export const m0030: Migration = {
  version: 30,
  name: 'unused',
  up() {},
};
