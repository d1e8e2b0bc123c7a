// The assistant's mail tools over a database, for tests that have no app: the same services the app hands them
// (app.ts builds them once), here built for the one database.
import { mailTools } from '../../electron/ai/tools/mail-tools.ts';
import type { AnyTool } from '../../electron/ai/tools/tool.ts';
import type { Db } from '../../electron/db/open.ts';
import { prepareOutbox } from '../../electron/mail/send/outbox.ts';
import { prepareMailActions } from '../../electron/mail/store/undo.ts';
import { prepareReads } from '../../electron/reads/reads.ts';

export function toolsOver(db: Db, reads: Parameters<typeof mailTools>[1] = prepareReads(db)): AnyTool[] {
  return mailTools({ db, actions: prepareMailActions(db), outbox: prepareOutbox(db) }, reads);
}
