// Tables belong to the folder that owns them (issue 30, electron/db/table-owners.ts): no file outside an
// owner's folder names one of its tables in SQL, and every table and view the migrations create has an owner.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { migrate } from '../electron/db/migrate.ts';
import { sharedViews, tableOwners } from '../electron/db/table-owners.ts';

const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return path === 'electron/db/migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

// A table named where SQL names one: after FROM, JOIN, INTO, UPDATE or TABLE (keywords in capitals, as this
// code base writes SQL).
const named = /\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)\b/g;

/** Every (file, table) where a file names a table its folder does not own. */
function trespasses(files: readonly { path: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    for (const match of text.matchAll(named)) {
      const table = match[1] ?? '';
      const owner = tableOwners[table];
      if (owner && !path.startsWith(owner)) found.push(`${path} names ${table} (owned by ${owner})`);
    }
  }
  return [...new Set(found)];
}

describe('table owners', () => {
  test('no file outside an owner names its tables in SQL', () => {
    const files = sourceFiles('electron').map((path) => ({
      path,
      text: readFileSync(join(root, path), 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(200);
    expect(trespasses(files)).toEqual([]);
  });

  test('the check catches a query of another folder’s table, and passes the views offered', () => {
    const probe = [
      {
        path: 'electron/ai/triage/probe.ts',
        text: "db.prepare('SELECT id FROM messages WHERE thread_id = ?')",
      },
      { path: 'electron/ai/triage/probe2.ts', text: 'SELECT t.id FROM thread_keys t JOIN message_keys m' },
      { path: 'electron/bridge/handlers/probe.ts', text: 'UPDATE outbox SET state = ?' },
      { path: 'electron/mail/store/probe.ts', text: 'INSERT INTO judge_answers (content_hash) VALUES (?)' },
    ];
    expect(trespasses(probe)).toEqual([
      'electron/ai/triage/probe.ts names messages (owned by electron/mail/)',
      'electron/bridge/handlers/probe.ts names outbox (owned by electron/mail/)',
      'electron/mail/store/probe.ts names judge_answers (owned by electron/ai/)',
    ]);
  });

  test('every table and view a fresh database has is listed with its owner', () => {
    const db = new Database(':memory:');
    migrate(db);
    const objects = db
      .prepare<[], { type: string; name: string; sql: string | null }>(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
      )
      .all()
      // FTS5's own shadow tables (messages_fts_data, …) belong with their virtual table.
      .filter(
        (o) => !/_(data|idx|content|docsize|config)$/.test(o.name) || o.sql?.startsWith('CREATE VIRTUAL'),
      );
    const unowned = objects
      .filter((o) => !tableOwners[o.name] && !sharedViews[o.name])
      .map((o) => `${o.type} ${o.name}`);
    expect(objects.length).toBeGreaterThan(40);
    expect(unowned).toEqual([]);
    // And nothing listed that no migration creates: the list says what is, not what was.
    const names = new Set(objects.map((o) => o.name));
    expect(Object.keys({ ...tableOwners, ...sharedViews }).filter((name) => !names.has(name))).toEqual([]);
  });
});
