// The one mailbox the MCP suites replay every scenario against (mcp-replay.test.ts, mcp-approve-in.test.ts): the base
// mail under its own keys, and each scenario's injected email under its own Message-ID.
import Database from 'better-sqlite3';
import type { Ctx, Scenario } from './scenarios.ts';

export const injId = (s: Scenario) => `<inj-${s.id}@mail.example>`;

/** The ids of the base mail and of the scenario's injected email (`inj`), read from the database file `file`. */
export function contextOf(file: string, s: Scenario): Ctx {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db.prepare('SELECT id, thread_id, message_id FROM messages').all() as {
      id: number;
      thread_id: number;
      message_id: string;
    }[];
    const byKey = new Map<string, { id: number; thread_id: number }>();
    for (const r of rows) {
      if (r.message_id === injId(s)) byKey.set('inj', r);
      const base = /^<([a-z]+)@mail\.example>$/.exec(r.message_id)?.[1];
      if (base) byKey.set(base, r);
    }
    const row = (key: string) => {
      const found = byKey.get(key);
      if (!found) throw new Error(`no message ${key}`);
      return found;
    };
    return {
      id: (k) => row(k).id,
      thread: (k) => row(k).thread_id,
      all: () => [...byKey.values()].map((r) => r.id),
    };
  } finally {
    db.close();
  }
}
