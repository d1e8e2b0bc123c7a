import type { Migration } from '../migrate.ts';
import { m0001 } from './0001-mail.ts';
import { m0002 } from './0002-secrets.ts';
import { m0003 } from './0003-list-indexes.ts';
import { m0004 } from './0004-fts-by-batch.ts';
import { m0005 } from './0005-services.ts';
import { m0006 } from './0006-conversations.ts';
import { m0007 } from './0007-turn-outcomes.ts';
import { m0008 } from './0008-labels-drafts-undo.ts';
import { m0009 } from './0009-grants-audit.ts';
import { m0010 } from './0010-awaiting-runs.ts';
import { m0011 } from './0011-imap-accounts.ts';
import { m0012 } from './0012-mail-ops.ts';
import { m0013 } from './0013-outbox.ts';
import { m0014 } from './0014-judge.ts';
import { m0015 } from './0015-documents.ts';
import { m0016 } from './0016-summaries.ts';
import { m0017 } from './0017-mail-consent.ts';
import { m0018 } from './0018-audit-jobs.ts';
import { m0019 } from './0019-service-prices.ts';
import { m0020 } from './0020-imap-uid-next.ts';
import { m0021 } from './0021-ask-answers.ts';
import { m0022 } from './0022-retired-ids.ts';
import { m0023 } from './0023-turn-notices.ts';
import { m0024 } from './0024-identities.ts';
import { m0025 } from './0025-starred.ts';
import { m0026 } from './0026-model-choices.ts';
import { m0027 } from './0027-message-warnings.ts';
import { m0028 } from './0028-agent-requests.ts';
import { m0029 } from './0029-compose.ts';
import { m0030 } from './0030-search-newest-first.ts';
import { m0031 } from './0031-triage-whole-mailbox.ts';
import { m0032 } from './0032-contacts-by-batch.ts';
import { m0033 } from './0033-draft-assists.ts';
import { m0034 } from './0034-one-message-id-index.ts';
import { m0035 } from './0035-undo-checks-spam-origins.ts';
import { m0036 } from './0036-oauth-accounts.ts';
import { m0037 } from './0037-unsubscribe.ts';
import { m0038 } from './0038-label-colours.ts';
import { m0043 } from './0043-mail-views.ts';
import { m0044 } from './0044-unsubscribe-outbox.ts';
import { m0045 } from './0045-trash-folders-ops.ts';
import { m0046 } from './0046-invitation-answers.ts';

// Append-only: a released migration never changes, and a new one takes a number above every one on main
// (migrate.ts applies those above the database's version only: a database at 43 never runs a new 0040).
export const migrations: readonly Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
  m0025,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
  m0031,
  m0032,
  m0033,
  m0034,
  m0035,
  m0036,
  m0037,
  m0038,
  m0043,
  m0044,
  m0045,
  m0046,
];
