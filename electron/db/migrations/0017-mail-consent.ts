import type { Migration } from '../migrate.ts';

// Consent (DESIGN §5): before mail or document text first goes to a service that is not on this computer,
// the user sees where it goes and agrees, per service. The consent holds for the service's settings as they
// were (`version`): an edited address asks again.
export const m0017: Migration = {
  version: 17,
  name: 'mail-consent',
  up(db) {
    db.exec('ALTER TABLE services ADD COLUMN mail_consent_version INTEGER');
  },
};
