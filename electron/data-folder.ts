// A data folder as every composition opens it (app.ts for the app and most commands, search-reader.ts for a
// search): the folder private to the user, its one database with every migration applied, and its log.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Db, openDatabase } from './db/open.ts';
import { fileLog, type Log } from './log.ts';

export const dbFileName = 'skimmer.db';
const logFileName = 'skimmer.log';

export function openDataFolder(dataDir: string): { dbFile: string; db: Db; log: Log } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const dbFile = join(dataDir, dbFileName);
  return { dbFile, db: openDatabase(dbFile), log: fileLog(join(dataDir, logFileName)) };
}
