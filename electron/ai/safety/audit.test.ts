import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../../test/support/temp.ts';
import { m0009 } from '../../db/migrations/0009-grants-audit.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { type AuditEntry, MAX_SUMMARY, prepareAudit, redactLong } from './audit.ts';

// Migration 0009 is registered in migrations/index.ts by whoever lands it; until then apply it here.
function open(dir = tempDir()): Db {
  const db = openDatabase(join(dir, 'skimmer.db'));
  if ((db.pragma('user_version', { simple: true }) as number) < 9) db.transaction(() => m0009.up(db))();
  return db;
}

const CANARY = 'sk-test-canary-0011';
// A configured key with no key-like shape: only masking by value can catch it.
const PLAIN_CANARY = 'plain-canary-0011';

function entry(over: Partial<AuditEntry> = {}): AuditEntry {
  return {
    conversationId: 1,
    runId: 7,
    callId: 'call_1',
    tool: 'archive',
    effect: 'write',
    args: { id: 'msg-4711' },
    provenance: { fromUntrusted: [], notNamedByUser: [] },
    decision: 'allowed',
    decidedBy: 'grant',
    resultSummary: 'Archived 1 message.',
    isError: false,
    ...over,
  };
}

describe('audit', () => {
  test('records a call and lists it back with every field', () => {
    const audit = prepareAudit(
      open(),
      () => [],
      () => 5000,
    );
    const id = audit.record(
      entry({
        provenance: { fromUntrusted: ['to'], notNamedByUser: ['mallory@evil.example'] },
        args: { to: 'mallory@evil.example', cc: ['a@b.example'], urgent: true, n: 2, none: null },
        effect: 'send',
        tool: 'send_mail',
        decision: 'approved',
        decidedBy: 'user',
        isError: true,
        resultSummary: 'The server refused the message.',
      }),
    );
    expect(audit.list({ limit: 10 })).toEqual([
      {
        id,
        at: 5000,
        conversationId: 1,
        jobId: null,
        runId: 7,
        client: null,
        callId: 'call_1',
        tool: 'send_mail',
        effect: 'send',
        args: { to: 'mallory@evil.example', cc: ['a@b.example'], urgent: true, n: 2, none: null },
        provenance: { fromUntrusted: ['to'], notNamedByUser: ['mallory@evil.example'] },
        decision: 'approved',
        decidedBy: 'user',
        resultSummary: 'The server refused the message.',
        isError: true,
      },
    ]);
  });

  test("names the outside agent that made a call, and lists only agents' calls after an entry", () => {
    const audit = prepareAudit(open(), () => []);
    const own = audit.record(entry({}));
    const agents = audit.record(entry({ conversationId: null, runId: null, client: 'Claude Desktop 1.2' }));
    expect(audit.list({ limit: 10 }).map((r) => [r.id, r.client])).toEqual([
      [agents, 'Claude Desktop 1.2'],
      [own, null],
    ]);
    expect(audit.fromAgentsAfter(0).map((r) => r.id)).toEqual([agents]);
    expect(audit.fromAgentsAfter(agents)).toEqual([]);
  });

  test('lists newest first, by conversation, within the limit', () => {
    let clock = 100;
    const audit = prepareAudit(
      open(),
      () => [],
      () => clock++,
    );
    audit.record(entry({ conversationId: 1, callId: 'a' }));
    audit.record(entry({ conversationId: 2, callId: 'b', runId: null }));
    audit.record(entry({ conversationId: 1, callId: 'c' }));
    expect(audit.list({ limit: 10 }).map((r) => r.callId)).toEqual(['c', 'b', 'a']);
    expect(audit.list({ conversationId: 1, limit: 10 }).map((r) => r.callId)).toEqual(['c', 'a']);
    expect(audit.list({ conversationId: 1, limit: 1 }).map((r) => r.callId)).toEqual(['c']);
    expect(audit.list({ conversationId: 2, limit: 10 })[0]?.runId).toBeNull();
    expect(audit.list({ conversationId: 3, limit: 10 })).toEqual([]);
  });

  test('caps the result summary at 500 characters', () => {
    const audit = prepareAudit(open(), () => []);
    audit.record(entry({ resultSummary: 'word '.repeat(400) }));
    const summary = audit.list({ limit: 1 })[0]?.resultSummary ?? '';
    expect(summary.length).toBe(MAX_SUMMARY);
    expect(summary.endsWith('…')).toBe(true);
    expect(summary.startsWith('word word')).toBe(true);
  });

  test('a key in the arguments, the summary or the provenance never reaches the database file', () => {
    const dir = tempDir();
    const db = open(dir);
    const audit = prepareAudit(db, () => [CANARY, PLAIN_CANARY]);
    audit.record(
      entry({
        callId: `call ${PLAIN_CANARY}`,
        args: {
          body: `Here is my key: ${CANARY} and the other ${PLAIN_CANARY}.\n\n${'padding '.repeat(30)}${PLAIN_CANARY}`,
          nested: [{ [PLAIN_CANARY]: `Bearer ${PLAIN_CANARY}` }],
        },
        provenance: { fromUntrusted: ['body'], notNamedByUser: [`${PLAIN_CANARY}@evil.example`] },
        resultSummary: `${'x '.repeat(100)}${PLAIN_CANARY} ${CANARY}`,
      }),
    );
    const [row] = audit.list({ limit: 1 });
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(CANARY);
    expect(stored).not.toContain(PLAIN_CANARY);
    expect(stored).toContain('[redacted]');
    expect(row?.args).toMatchObject({
      body: expect.stringMatching(/^Here is my key: \[redacted\] and the other/),
    });
    db.close();
    for (const file of readdirSync(dir)) {
      const bytes = readFileSync(join(dir, file)).toString('latin1');
      expect(bytes, file).not.toContain(CANARY);
      expect(bytes, file).not.toContain('canary-0011');
    }
  });

  test('a key read at the time of writing is masked, so a key added later is covered', () => {
    const keys: string[] = [];
    const audit = prepareAudit(open(), () => keys);
    keys.push(PLAIN_CANARY);
    audit.record(entry({ args: { note: PLAIN_CANARY } }));
    expect(audit.list({ limit: 1 })[0]?.args).toEqual({ note: '[redacted]' });
  });

  test('the table refuses a decision or a decider it does not know', () => {
    const db = open();
    const audit = prepareAudit(db, () => []);
    expect(() => audit.record(entry({ decision: 'maybe' as AuditEntry['decision'] }))).toThrow(/CHECK/);
    expect(() => audit.record(entry({ decidedBy: 'model' as AuditEntry['decidedBy'] }))).toThrow(/CHECK/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO audit (at, conversation_id, call_id, tool, effect, args_json, provenance_json, decision,
             decided_by, result_summary, is_error) VALUES (1, 1, 'c', 't', 'write', '{}', '{}', 'ok', 'gate', '', 0)`,
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(audit.list({ limit: 10 })).toEqual([]);
  });
});

describe('redactLong', () => {
  test('masks a key across more than 200 characters of text', () => {
    const text = `${'a '.repeat(150)}${PLAIN_CANARY} ${'b '.repeat(150)}Bearer ${PLAIN_CANARY}x`;
    const out = redactLong(text, [PLAIN_CANARY], 1000);
    expect(out).not.toContain('canary');
    expect(out.length).toBeGreaterThan(200);
  });

  test('masks a configured key with a space inside even when it straddles two chunks', () => {
    const key = 'two part secret';
    const text = `${'w'.repeat(150)} ${key} end`;
    expect(redactLong(text, [key], 500)).not.toContain('two part secret');
  });
});
