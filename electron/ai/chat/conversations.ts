// Stored conversations (DESIGN §3): a turn — the user's words and the answer, or what arrived of it —
// is committed in one transaction, so a crash never leaves half a turn. Owns conversations,
// conversation_messages and runs.
import type { ConversationSummary } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { Turn } from '../protocol/messages.ts';

export type Usage = { inputTokens: number; outputTokens: number };
export type TurnNote = {
  usage: Usage | null;
  ended: { outcome: 'stopped' | 'failed'; code: string } | null;
  // Part of the answer could not be read, yet the turn went on (a non-terminal error code, DESIGN §6).
  notice: string | null;
};

type SummaryRow = { id: number; title: string; model: string; updated_at: number };
const toSummary = (r: SummaryRow): ConversationSummary => ({
  id: r.id,
  title: r.title,
  model: r.model,
  updatedAt: r.updated_at,
});

export function prepareConversations(db: Db, now: () => number = Date.now) {
  const insertConversation = db.prepare<[string, string, number, number]>(
    'INSERT INTO conversations (title, model, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  const exists = db.prepare<[number]>('SELECT 1 FROM conversations WHERE id = ?').pluck();
  const messages = db.prepare<[number], { role: string; content_json: string }>(
    'SELECT role, content_json FROM conversation_messages WHERE conversation_id = ? ORDER BY seq',
  );
  const nextSeq = db
    .prepare<[number]>(
      'SELECT coalesce(max(seq), 0) + 1 FROM conversation_messages WHERE conversation_id = ?',
    )
    .pluck();
  const insertMessage = db.prepare<[number, number, string, string, string | null, number]>(
    `INSERT INTO conversation_messages (conversation_id, seq, role, content_json, usage_json, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const touch = db.prepare<[number, number]>('UPDATE conversations SET updated_at = ? WHERE id = ?');
  const startRun = db.prepare<[number, number]>(
    "INSERT INTO runs (conversation_id, status, started_at) VALUES (?, 'running', ?)",
  );
  const endRun = db.prepare<[string, string | null, number, number]>(
    'UPDATE runs SET status = ?, error_code = ?, ended_at = ? WHERE id = ?',
  );
  const summaries = db.prepare<[], SummaryRow>(
    'SELECT id, title, model, updated_at FROM conversations ORDER BY updated_at DESC, id DESC LIMIT 500',
  );
  const summary = db.prepare<[number], SummaryRow>(
    'SELECT id, title, model, updated_at FROM conversations WHERE id = ?',
  );
  const notes = db.prepare<
    [number],
    {
      usage_json: string | null;
      outcome: 'stopped' | 'failed' | null;
      error_code: string | null;
      notice_code: string | null;
    }
  >(
    `SELECT usage_json, outcome, error_code, notice_code FROM conversation_messages
     WHERE conversation_id = ? ORDER BY seq`,
  );
  const markOutcome = db.prepare<[string, string | null, number, number]>(
    'UPDATE conversation_messages SET outcome = ?, error_code = ? WHERE conversation_id = ? AND seq = ?',
  );
  const markNotice = db.prepare<[string, number, number]>(
    'UPDATE conversation_messages SET notice_code = ? WHERE conversation_id = ? AND seq = ?',
  );
  const closeRunning = db.prepare<[number]>(
    "UPDATE runs SET status = 'interrupted', ended_at = ? WHERE status = 'running'",
  );

  return {
    create(firstPrompt: string, model: string): number {
      const title = firstPrompt.replace(/\s+/g, ' ').trim().slice(0, 80) || 'New conversation';
      return Number(insertConversation.run(title, model, now(), now()).lastInsertRowid);
    },

    exists: (id: number): boolean => exists.get(id) !== undefined,

    list: (): ConversationSummary[] => summaries.all().map(toSummary),

    summary(id: number): ConversationSummary | null {
      const row = summary.get(id);
      return row ? toSummary(row) : null;
    },

    // Each stored turn with the usage its answer reported, for the chat pane.
    // Per stored message: the usage its answer reported, and how its turn ended if not normally.
    notes: (id: number): TurnNote[] =>
      notes.all(id).map((r) => ({
        usage: r.usage_json ? (JSON.parse(r.usage_json) as Usage) : null,
        ended: r.outcome ? { outcome: r.outcome, code: r.error_code ?? 'internal' } : null,
        notice: r.notice_code,
      })),

    history(id: number): Turn[] {
      return messages.all(id).map((m) => Turn.parse({ role: m.role, content: JSON.parse(m.content_json) }));
    },

    startRun: (conversationId: number): number => Number(startRun.run(conversationId, now()).lastInsertRowid),

    // The user's turn and the answer (if anything arrived) are stored together with the run's outcome, and
    // with the notice when part of the answer could not be read.
    commitTurn: db.transaction(
      (
        run: {
          id: number;
          conversationId: number;
          status: 'done' | 'error' | 'aborted';
          errorCode?: string;
          noticeCode?: string;
        },
        user: Turn,
        answer: Turn | null,
        usage: Usage | null,
      ) => {
        let seq = nextSeq.get(run.conversationId) as number;
        insertMessage.run(run.conversationId, seq, user.role, JSON.stringify(user.content), null, now());
        if (answer && answer.content.length > 0) {
          const u = usage ? JSON.stringify(usage) : null;
          insertMessage.run(run.conversationId, ++seq, answer.role, JSON.stringify(answer.content), u, now());
        }
        // The last message of the turn says how it ended, when it did not end normally.
        if (run.status !== 'done') {
          const outcome = run.status === 'aborted' ? 'stopped' : 'failed';
          markOutcome.run(
            outcome,
            run.status === 'aborted' ? 'cancelled' : (run.errorCode ?? 'internal'),
            run.conversationId,
            seq,
          );
        }
        // On the answer, or on the user's words when no answer was stored, as the outcome is.
        if (run.noticeCode) markNotice.run(run.noticeCode, run.conversationId, seq);
        touch.run(now(), run.conversationId);
        endRun.run(run.status, run.errorCode ?? null, now(), run.id);
      },
    ),

    // A tool-using run's new turns (electron/ai/chat/agent.ts), stored with its outcome in one transaction.
    // A run that ends waiting for approval stores its calls open; the next run answers them.
    appendTurns: db.transaction(
      (
        run: {
          id: number;
          conversationId: number;
          status: 'done' | 'awaiting_approval' | 'error';
          errorCode?: string;
          noticeCode?: string;
        },
        turns: readonly Turn[],
        usage: Usage | null = null,
      ) => {
        const first = nextSeq.get(run.conversationId) as number;
        let seq = first;
        const lastAnswer = turns.findLastIndex((t) => t.role === 'assistant');
        turns.forEach((turn, i) => {
          const u = i === lastAnswer && usage ? JSON.stringify(usage) : null;
          insertMessage.run(run.conversationId, seq++, turn.role, JSON.stringify(turn.content), u, now());
        });
        // As with a plain answer, the last stored message says how the run ended when it did not end well.
        if (run.status === 'error' && turns.length > 0) {
          const stopped = run.errorCode === 'cancelled';
          markOutcome.run(
            stopped ? 'stopped' : 'failed',
            run.errorCode ?? 'internal',
            run.conversationId,
            seq - 1,
          );
        }
        // The run's answer carries the notice, where its usage goes (the chat pane reads one run as one
        // answer); without an answer, the last message of the run does.
        if (run.noticeCode && turns.length > 0) {
          markNotice.run(run.noticeCode, run.conversationId, lastAnswer >= 0 ? first + lastAnswer : seq - 1);
        }
        touch.run(now(), run.conversationId);
        endRun.run(run.status, run.errorCode ?? null, now(), run.id);
      },
    ),

    // On start: a run left `running` was cut off by a restart; nothing of it was committed.
    closeInterruptedRuns: (): number => closeRunning.run(now()).changes,
  };
}
