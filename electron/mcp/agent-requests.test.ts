import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { openDatabase } from '../db/open.ts';
import { prepareAgentRequests } from './agent-requests.ts';
import { appRunning, startPresence } from './app-presence.ts';

const hash = 'a'.repeat(64);

function setup() {
  const db = openDatabase(join(tempDir(), 'skimmer.db'));
  let clock = 1_000;
  const requests = prepareAgentRequests(db, () => clock);
  const ask = (over: { args?: unknown; timeoutMs?: number } = {}) =>
    requests.ask({
      client: 'Claude Desktop 1.0',
      callId: 'sc-0123456789',
      tool: 'archive',
      effect: 'write',
      args: over.args ?? { ids: [1] },
      argsHash: hash,
      provenance: { fromUntrusted: [], notNamedByUser: [] },
      preview: { title: 'Archive 1 message', lines: ['“Hi” from a@b.example, in Inbox'] },
      timeoutMs: over.timeoutMs ?? 60_000,
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

  test('masks a key-shaped string in what the card stores', () => {
    const { db, ask } = setup();
    ask({ args: { to: ['a@b.example'], body: 'my key is sk-test-canary-card-0011223344, thanks' } });
    const stored = db.prepare('SELECT args_json FROM agent_requests').pluck().get() as string;
    expect(stored).not.toContain('sk-test-canary-card-0011223344');
    expect(stored).toContain('[redacted]');
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
