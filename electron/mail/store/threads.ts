// Threading (DESIGN §11): by References/In-Reply-To, with a subject fallback for replies that carry
// neither. thread_refs remembers every Message-ID a thread has seen, so a reply that arrives before its
// parent still joins it, and two threads that turn out to be one are merged.
import type { Db } from '../../db/open.ts';
import { nextId } from '../../db/retired-ids.ts';

const replyPrefix = /^\s*((re|fw|fwd|aw|wg|sv|vs|antw|r|rif|tr|odp|ynt|atb)(\[\d+\])?\s*[:：]\s*)+/i;
// How far apart in time a subject-only reply may be from its thread.
const subjectWindowMs = 60 * 24 * 3600 * 1000;

function subjectKey(subject: string): string {
  return subject.replace(replyPrefix, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

function isReplySubject(subject: string): boolean {
  return replyPrefix.test(subject);
}

export type ThreadInput = {
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  subject: string;
  date: number;
};

export function prepareThreading(db: Db) {
  const findRef = db.prepare<[string], { thread_id: number }>(
    'SELECT thread_id FROM thread_refs WHERE message_id = ?',
  );
  const findBySubject = db.prepare<[string, number, number], { id: number }>(
    'SELECT id FROM threads WHERE subject_key = ? AND last_date BETWEEN ? AND ? ORDER BY last_date DESC LIMIT 1',
  );
  const newThread = db.prepare<[string, string, number]>(
    // The id after every id ever given (migration 0022): conversations and summaries name threads by id.
    `INSERT INTO threads (id, subject, subject_key, last_date, message_count) VALUES (${nextId('threads')}, ?, ?, ?, 0)`,
  );
  const addRef = db.prepare<[string, number]>(
    'INSERT INTO thread_refs (message_id, thread_id) VALUES (?, ?) ON CONFLICT (message_id) DO NOTHING',
  );
  const moveMessages = db.prepare<[number, number]>('UPDATE messages SET thread_id = ? WHERE thread_id = ?');
  const moveRefs = db.prepare<[number, number]>('UPDATE thread_refs SET thread_id = ? WHERE thread_id = ?');
  const absorb = db.prepare<[{ into: number; from: number }]>(
    `UPDATE threads SET message_count = message_count + (SELECT message_count FROM threads WHERE id = @from),
       last_date = max(last_date, (SELECT last_date FROM threads WHERE id = @from)) WHERE id = @into`,
  );
  const dropThread = db.prepare<[number]>('DELETE FROM threads WHERE id = ?');
  const touch = db.prepare<[number, number]>(
    'UPDATE threads SET message_count = message_count + 1, last_date = max(last_date, ?) WHERE id = ?',
  );

  // Returns the thread the message belongs to; call `counted` after the message row is stored.
  function assign(m: ThreadInput): number {
    const ids = [...new Set([m.messageId, ...m.references, ...(m.inReplyTo ? [m.inReplyTo] : [])])].filter(
      (id) => id.length > 0,
    );
    // The ids thread_refs knows already: after the merge below they all name the message's thread, so only the
    // others are added (a reply in a long thread repeats most of its References; issue 18).
    const known = ids.map((id) => findRef.get(id)?.thread_id);
    const found = [...new Set(known.filter((t) => t !== undefined))];
    let thread: number;
    if (found.length > 0) {
      thread = Math.min(...found);
      for (const other of found) {
        if (other === thread) continue;
        moveMessages.run(thread, other);
        moveRefs.run(thread, other);
        absorb.run({ into: thread, from: other });
        dropThread.run(other);
      }
    } else {
      const key = subjectKey(m.subject);
      const bySubject =
        isReplySubject(m.subject) && key.length > 0
          ? findBySubject.get(key, m.date - subjectWindowMs, m.date + subjectWindowMs)
          : undefined;
      thread = bySubject?.id ?? Number(newThread.run(m.subject, key, m.date).lastInsertRowid);
    }
    ids.forEach((id, i) => {
      if (known[i] === undefined) addRef.run(id, thread);
    });
    return thread;
  }

  function counted(thread: number, date: number): void {
    touch.run(date, thread);
  }

  return { assign, counted };
}
