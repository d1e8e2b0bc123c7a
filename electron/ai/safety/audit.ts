// The audit log (DESIGN §7): every tool call, its arguments and provenance, the decision, who decided,
// and a short summary of the result. Owns the `audit` table; written once per settled call, read by the
// viewer in settings.
//
// SECURITY: every string that is stored passes through `redact` with the configured keys, so a key that
// a model (or a mail) put into arguments or a result never lands in the database in plain text (DESIGN §4).
// `redact` also collapses whitespace and cuts to 200 characters; longer text is masked in chunks of whole
// words (see `redactLong`), so the summary can keep its 500 characters and arguments their 1,000.
import type { Db } from '../../db/open.ts';
import { capText, redact } from '../protocol/redact.ts';
import type { CallDecision, Provenance, ToolEffect } from '../tools/tool.ts';

type AuditDecision = CallDecision;
type DecidedBy = 'gate' | 'grant' | 'user' | 'engine';

/** A tool call of a conversation, or a step of a triage job (its answers, a rule's approved writes). */
export type AuditEntry = {
  conversationId: number | null;
  jobId?: number | null;
  runId?: number | null;
  /** The outside agent that made the call through `skimmer mcp`, as it named itself; absent in the app. */
  client?: string | null;
  callId: string;
  tool: string;
  effect: ToolEffect;
  args: unknown;
  provenance: Provenance;
  decision: AuditDecision;
  decidedBy: DecidedBy;
  resultSummary: string;
  isError: boolean;
};

export type AuditRecord = Omit<AuditEntry, 'runId' | 'jobId' | 'client'> & {
  id: number;
  at: number;
  runId: number | null;
  jobId: number | null;
  client: string | null;
};

export const MAX_SUMMARY = 500;
const maxArgString = 1000;
/** Arguments bigger than this are kept as a cut preview of their (already redacted) JSON. */
const maxArgsJson = 20_000;
// `redact` cuts at 200; a chunk of at most 160 characters stays under it even if every 8-character key in
// it grows to the 10-character mask.
const chunkLength = 160;

/** `redact` for text of any length: masks chunk by chunk, then cuts to `max` without splitting a pair. */
export function redactLong(text: string, keys: readonly string[], max: number): string {
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const pieces: string[] = [];
  let length = 0;
  let current = '';
  const flush = () => {
    const piece = redact(current, keys);
    pieces.push(piece);
    length += piece.length + 1;
    current = '';
  };
  for (let i = 0; i < words.length && length <= max; i++) {
    const word = words[i] as string;
    const joined = current ? `${current} ${word}` : word;
    // A chunk never ends on "Bearer", so the token after it is masked together with it.
    if (current && joined.length > chunkLength && !/^bearer$/i.test(words[i - 1] ?? '')) {
      flush();
      current = word;
    } else {
      current = joined;
    }
  }
  if (current && length <= max) flush();
  let out = pieces.join(' ');
  // SECURITY: a configured key with whitespace inside could straddle two chunks; mask such text whole.
  const leaked = keys.some(
    (k) => k.length >= 8 && (out.includes(k) || out.includes(k.replace(/\s+/g, ' ').trim())),
  );
  if (leaked) out = redact(text, keys);
  return capText(out, max);
}

/** A JSON-shaped copy of `value` with every string (values and property names) redacted. */
function redactValue(value: unknown, keys: readonly string[]): unknown {
  if (typeof value === 'string') return redactLong(value, keys, maxArgString);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, keys));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[redactLong(k, keys, maxArgString)] = redactValue(v, keys);
    return out;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return null; // undefined, functions, bigints: nothing a tool's JSON arguments can hold
}

function redactedJson(value: unknown, keys: readonly string[]): string {
  const json = JSON.stringify(redactValue(value, keys)) ?? 'null';
  return json.length <= maxArgsJson
    ? json
    : JSON.stringify({ truncated: true, preview: json.slice(0, 4000) });
}

type AuditRow = {
  id: number;
  at: number;
  conversation_id: number | null;
  job_id: number | null;
  run_id: number | null;
  client: string | null;
  call_id: string;
  tool: string;
  effect: ToolEffect;
  args_json: string;
  provenance_json: string;
  decision: AuditDecision;
  decided_by: DecidedBy;
  result_summary: string;
  is_error: number;
};

const toRecord = (r: AuditRow): AuditRecord => ({
  id: r.id,
  at: r.at,
  conversationId: r.conversation_id,
  jobId: r.job_id,
  runId: r.run_id,
  client: r.client,
  callId: r.call_id,
  tool: r.tool,
  effect: r.effect,
  args: JSON.parse(r.args_json),
  provenance: JSON.parse(r.provenance_json),
  decision: r.decision,
  decidedBy: r.decided_by,
  resultSummary: r.result_summary,
  isError: r.is_error === 1,
});

const columns = `id, at, conversation_id, job_id, run_id, client, call_id, tool, effect, args_json, provenance_json, decision,
  decided_by, result_summary, is_error`;

/** `keys` returns the configured keys at the moment of writing, so a key added later is masked too. */
export function prepareAudit(db: Db, keys: () => readonly string[], now: () => number = Date.now) {
  const insert = db.prepare<
    [
      number,
      number | null,
      number | null,
      number | null,
      string | null,
      string,
      string,
      ToolEffect,
      string,
      string,
      string,
      string,
      string,
      number,
    ]
  >(
    `INSERT INTO audit (at, conversation_id, job_id, run_id, client, call_id, tool, effect, args_json,
       provenance_json, decision, decided_by, result_summary, is_error)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const all = db.prepare<[number], AuditRow>(
    `SELECT ${columns} FROM audit ORDER BY at DESC, id DESC LIMIT ?`,
  );
  const forConversation = db.prepare<[number, number], AuditRow>(
    `SELECT ${columns} FROM audit WHERE conversation_id = ? ORDER BY at DESC, id DESC LIMIT ?`,
  );
  const forJob = db.prepare<[number, number], AuditRow>(
    `SELECT ${columns} FROM audit WHERE job_id = ? ORDER BY at DESC, id DESC LIMIT ?`,
  );
  const fromAgents = db.prepare<[number], AuditRow>(
    `SELECT ${columns} FROM audit WHERE client IS NOT NULL AND id > ? ORDER BY id`,
  );
  const newestFromAgents = db
    .prepare<[], number | null>('SELECT max(id) FROM audit WHERE client IS NOT NULL')
    .pluck();

  return {
    /** The id of the newest entry an outside agent's call made, 0 when there is none. */
    newestFromAgents: (): number => newestFromAgents.get() ?? 0,
    record(entry: AuditEntry): number {
      const k = keys();
      const provenance = {
        fromUntrusted: entry.provenance.fromUntrusted,
        notNamedByUser: entry.provenance.notNamedByUser,
      };
      return Number(
        insert.run(
          now(),
          entry.conversationId,
          entry.jobId ?? null,
          entry.runId ?? null,
          entry.client == null ? null : redactLong(entry.client, k, 100),
          redactLong(entry.callId, k, 200),
          redactLong(entry.tool, k, 200),
          entry.effect,
          redactedJson(entry.args, k),
          redactedJson(provenance, k),
          entry.decision,
          entry.decidedBy,
          redactLong(entry.resultSummary, k, MAX_SUMMARY),
          entry.isError ? 1 : 0,
        ).lastInsertRowid,
      );
    },

    /** Newest first; `limit` is kept between 1 and 1,000. */
    list(options: { conversationId?: number; jobId?: number; limit: number }): AuditRecord[] {
      const limit = Math.min(Math.max(Math.trunc(options.limit), 1), 1000);
      const rows =
        options.conversationId !== undefined
          ? forConversation.all(options.conversationId, limit)
          : options.jobId !== undefined
            ? forJob.all(options.jobId, limit)
            : all.all(limit);
      return rows.map(toRecord);
    },

    /** Outside agents' calls recorded after entry `afterId`, oldest first (the app's agent watch). */
    fromAgentsAfter: (afterId: number): AuditRecord[] => fromAgents.all(afterId).map(toRecord),
  };
}
