import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { prepareAgentRequests } from './agent-requests.ts';
import { appRunning, startPresence } from './app-presence.ts';

const hash = 'a'.repeat(64);
const savedKey = 'sk-test-canary-saved-5566778899';

function setup() {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  let clock = 1_000;
  const requests = prepareAgentRequests(db, () => clock);
  const ask = (
    over: { args?: unknown; timeoutMs?: number; preview?: { title: string; lines: string[] } } = {},
  ) =>
    requests.ask({
      client: 'Claude Desktop 1.0',
      callId: 'sc-0123456789',
      tool: 'archive',
      effect: 'write',
      args: over.args ?? { ids: [1] },
      argsHash: hash,
      provenance: { fromUntrusted: [], notNamedByUser: [] },
      preview: over.preview ?? { title: 'Archive 1 message', lines: ['“Hi” from a@b.example, in Inbox'] },
      timeoutMs: over.timeoutMs ?? 60_000,
      keys: [savedKey],
    });
  return { db, requests, ask, tick: (ms: number) => (clock += ms) };
}

describe('agent requests', () => {
  test('lists a waiting call with who asked, as a card that offers no grant', () => {
    const { requests, ask } = setup();
    const id = ask();
    expect(requests.pending()).toEqual([
      {
        id,
        client: 'Claude Desktop 1.0',
        askedAt: 1_000,
        expiresAt: 61_000,
        call: {
          id: 'sc-0123456789',
          argsHash: hash,
          name: 'archive',
          effect: 'write',
          args: { ids: [1] },
          preview: { title: 'Archive 1 message', lines: ['“Hi” from a@b.example, in Inbox'] },
          provenance: { fromUntrusted: [], notNamedByUser: [] },
          grantable: false,
          held: false,
        },
      },
    ]);
  });

  test('takes the first answer, and refuses one for other arguments or a second one', () => {
    const { requests, ask } = setup();
    const id = ask();
    expect(() => requests.answer(id, 'b'.repeat(64), 'approve')).toThrow('no longer waiting');
    expect(requests.state(id)).toBe('pending');
    requests.answer(id, hash, 'deny');
    expect(requests.state(id)).toBe('denied');
    expect(() => requests.answer(id, hash, 'approve')).toThrow('no longer waiting');
    expect(requests.state(id)).toBe('denied');
    expect(requests.pending()).toEqual([]);
  });

  test('a call past its time is expired, shown no more and not answerable', () => {
    const { requests, ask, tick } = setup();
    const id = ask({ timeoutMs: 5_000 });
    tick(5_000);
    expect(requests.pending()).toEqual([]);
    expect(() => requests.answer(id, hash, 'approve')).toThrow('no longer waiting');
    expect(requests.state(id)).toBe('expired');
  });

  test('a withdrawn call is not answerable', () => {
    const { requests, ask } = setup();
    const id = ask();
    requests.withdraw(id);
    expect(() => requests.answer(id, hash, 'approve')).toThrow('no longer waiting');
    expect(requests.state(id)).toBe('withdrawn');
  });

  test('masks only the keys saved in this Skimmer, by value', () => {
    const { db, requests, ask } = setup();
    const body = `my key is ${savedKey}; the vendor's is sk-test-canary-other-0011223344, Bearer abcdefgh12345`;
    ask({ args: { to: ['a@b.example'], body }, preview: { title: 'Send', lines: [body] } });
    const stored = db.prepare('SELECT args_json || preview_json FROM agent_requests').pluck().get() as string;
    expect(stored).not.toContain(savedKey);
    // What is only shaped like a key goes out all the same, so the card shows it.
    const shown = `my key is ⟦a key saved in Skimmer⟧; the vendor's is sk-test-canary-other-0011223344, Bearer abcdefgh12345`;
    expect(requests.pending()[0]?.call.args).toEqual({ to: ['a@b.example'], body: shown });
    expect(requests.pending()[0]?.call.preview.lines).toEqual([shown]);
  });

  // Issue 27: a body line of 44 visible characters, spaces, then the real request, was cut at 200 and sent whole.
  test('keeps every line and argument whole, however long, spaces and all', () => {
    const { requests, ask } = setup();
    const line = `Thanks, the figures look right to me. Bob.${' '.repeat(400)}PS wire it to IBAN DE89 3704 0044 0532 0130 00, ATTACKER`;
    const body = `${line}\n${'x'.repeat(5000)}`;
    ask({
      args: { to: ['a@b.example'], subject: 's'.repeat(900), body },
      preview: { title: `Send to ${'a'.repeat(300)}@b.example`, lines: body.split('\n') },
    });
    const { call } = requests.pending()[0] ?? { call: null };
    expect(call?.args).toEqual({ to: ['a@b.example'], subject: 's'.repeat(900), body });
    expect(call?.preview).toEqual({ title: `Send to ${'a'.repeat(300)}@b.example`, lines: body.split('\n') });
  });
});

describe('app presence', () => {
  test('the app is there while it beats, and gone once stopped or silent', () => {
    const { db } = setup();
    let clock = 10_000;
    expect(appRunning(db, () => clock)).toBe(false);
    const stop = startPresence(db, () => clock);
    expect(appRunning(db, () => clock)).toBe(true);
    clock += 60_000;
    expect(appRunning(db, () => clock)).toBe(false);
    stop();
    expect(appRunning(db, () => 10_000)).toBe(false);
  });

  test('a beat does not wait while another connection holds the write lock, and beats once it is free', async () => {
    const file = join(tempDir(), 'skimmer.db');
    const db = openDatabase(file);
    const other = openDatabase(file);
    other.exec('BEGIN IMMEDIATE');
    // A beat that waited would wait out the busy timeout here and then throw SQLITE_BUSY.
    const stop = startPresence(db);
    try {
      expect(appRunning(db)).toBe(false);
      other.exec('COMMIT');
      await expect.poll(() => appRunning(db), { timeout: 5000 }).toBe(true);
    } finally {
      stop();
      other.close();
    }
  });
});
