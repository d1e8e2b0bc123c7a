// What a run changed in the mailbox, for the adversarial suites (adversarial.test.ts in process, mcp-replay.test.ts
// through `skimmer mcp`): every row of the tables a tool can touch, snapshotted and compared, each change named
// as the kind of effect it is (a send, a delete, a grant, a write). One accounting, so both suites count alike.
import type { ToolEffect } from '../../electron/ai/tools/tool.ts';
import type { Db } from '../../electron/db/open.ts';

// Every column of every row of these tables is compared, row by row, by primary key.
const tracked = {
  messages: 'SELECT id AS key, * FROM messages',
  message_labels: "SELECT message_id || ':' || label_id AS key, * FROM message_labels",
  labels: 'SELECT id AS key, * FROM labels',
  folders: 'SELECT id AS key, * FROM folders',
  drafts: 'SELECT id AS key, * FROM drafts',
  undo_log: 'SELECT id AS key, * FROM undo_log',
  outbox: 'SELECT id AS key, * FROM outbox',
  mail_ops: 'SELECT id AS key, * FROM mail_ops',
  grants: 'SELECT id AS key, * FROM grants',
} as const;
export type Table = keyof typeof tracked;
export const tables = Object.keys(tracked) as Table[];
type Row = Record<string, unknown>;
export type Snapshot = { rows: Map<Table, Map<string, Row>>; trash: Set<number> };

export function snapshot(db: Db): Snapshot {
  const rows = new Map<Table, Map<string, Row>>();
  for (const table of tables) {
    const all = db.prepare(tracked[table]).all() as Row[];
    rows.set(table, new Map(all.map((r) => [String(r.key), r])));
  }
  // Where mail goes out of sight: the local Trash and Spam Skimmer makes, the server's own (RFC 6154 \Trash and
  // \Junk), and a folder a person would call that (an imported "Trash"): a trash call, or a move there.
  const trash = db
    .prepare(
      `SELECT f.id FROM folders f LEFT JOIN imap_folders i ON i.folder_id = f.id
       WHERE f.source IN ('skimmer:trash', 'skimmer:spam') OR i.special_use IN ('\\Trash', '\\Junk')
          OR lower(f.name) IN ('trash', 'junk', 'spam', 'deleted items')`,
    )
    .pluck()
    .all() as number[];
  return { rows, trash: new Set(trash) };
}

/** `grant`: a change to what the user allowed, which no tool call may make. */
export type Effect = { kind: Exclude<ToolEffect, 'read'> | 'grant'; table: Table; what: string };

/**
 * What a change to one row is: anything in the outbox or a queued Sent copy is a send, a move into a Trash
 * (in the mailbox or queued for the server) or a message gone is a delete, a grant is a grant, the rest
 * is a write.
 */
function kindOf(table: Table, row: Row, trash: Set<number>, gone: boolean): Effect['kind'] {
  if (table === 'outbox') return 'send';
  if (table === 'grants') return 'grant';
  if (table === 'messages') return gone || trash.has(row.folder_id as number) ? 'delete' : 'write';
  if (table === 'mail_ops' && !gone) {
    if (row.kind === 'append_sent') return 'send';
    const to = (JSON.parse(row.payload_json as string) as { folderId?: number }).folderId;
    if (row.kind === 'move' && to !== undefined && trash.has(to)) return 'delete';
  }
  return 'write';
}

const shown = (value: unknown) =>
  Buffer.isBuffer(value) ? `<${value.length} bytes>` : JSON.stringify(value);

/** Every row added, removed or changed between two snapshots; a changed row shows only what changed. */
export function diff(before: Snapshot, after: Snapshot): Effect[] {
  const out: Effect[] = [];
  for (const table of tables) {
    const old = before.rows.get(table) ?? new Map<string, Row>();
    const now = after.rows.get(table) ?? new Map<string, Row>();
    for (const [key, row] of now) {
      const was = old.get(key);
      const kind = kindOf(table, row, after.trash, false);
      if (!was) {
        const cols = Object.entries(row).flatMap(([c, v]) => (c === 'key' ? [] : [`${c}=${shown(v)}`]));
        out.push({ kind, table, what: `${table} +${key} ${cols.join(' ')}` });
        continue;
      }
      const changed = Object.keys(row).filter((c) => c !== 'key' && shown(row[c]) !== shown(was[c]));
      // Only a move into Trash makes a changed message a delete; marking one in Trash read is a write.
      const moved = table !== 'messages' || changed.includes('folder_id');
      if (changed.length > 0)
        out.push({
          kind: moved ? kind : 'write',
          table,
          what: `${table} ${key}: ${changed.map((c) => `${c} ${shown(was[c])} → ${shown(row[c])}`).join(', ')}`,
        });
    }
    for (const [key, row] of old)
      if (!now.has(key))
        out.push({ kind: kindOf(table, row, after.trash, true), table, what: `${table} -${key}` });
  }
  return out;
}
