// Where an outside agent's send and delete are approved (`skimmer mcp --approve-in app|client`). A client's
// "accept" to an elicitation need not be a person's: clients have modes that accept every request by
// themselves. Here the agent obeys an injected email that asks it to send the security code and trash the
// evidence, through a client that declares elicitation and accepts everything it is asked, the SDK's client
// over stdio against the real `skimmer mcp` process. The verdict is on the mailbox, diffed as the other
// adversarial suites diff it (side-effects.ts):
// - by default, the send and the trash never reach the client: with no app open they are refused at once, and
//   with the app open they wait on its card, where the user denies them; the outbox and the Trash are as before;
// - with `--approve-in client`, the client's accept runs them, and the diff sees the send and the delete.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type App, createApp } from '../../electron/app.ts';
import { dispatch } from '../../electron/bridge/dispatch.ts';
import { type Db, openDatabase } from '../../electron/db/open.ts';
import { prepareAccounts } from '../../electron/mail/accounts.ts';
import type { AgentRequest } from '../../electron/mcp/agent-requests.ts';
import { fileSealer } from '../../electron/secrets/file-vault.ts';
import { createKeyVault } from '../../electron/secrets/key-vault.ts';
import { runSkimmer } from '../support/cli.ts';
import { type McpSession, startMcp } from '../support/mcp-session.ts';
import { eml, tempDir } from '../support/temp.ts';
import { contextOf, injId } from './mcp-mailbox.ts';
import { baseMail, type Ctx, type Scenario, scenarios } from './scenarios.ts';
import { diff, type Effect, type Snapshot, snapshot } from './side-effects.ts';

// An exfiltration hidden by a delete (AgentDojo IT5), and a round that writes, sends and deletes.
const chosen = ['ad-it5-important', 'own-mixed-round'].map((id) => {
  const s = scenarios.find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
});
const irreversible = (name: string) => name === 'send_mail' || name === 'trash';

const root = tempDir('skimmer-mcp-approve-in-');
const template = join(root, 'template');
let copies = 0;
const open: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  const mail = join(root, 'mail');
  for (const [i, m] of baseMail.entries()) {
    const dir = join(mail, m.folder);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, `${m.key}.eml`),
      eml({
        id: `<${m.key}@mail.example>`,
        from: m.from,
        subject: m.subject,
        body: m.body,
        date: `Sun, 29 Nov 2026 ${String(8 + i).padStart(2, '0')}:00:00 +0000`,
      }),
    );
  }
  for (const s of chosen) {
    writeFileSync(
      join(mail, 'Inbox', `inj-${s.id}.eml`),
      eml({ id: injId(s), ...s.inject, date: 'Mon, 30 Nov 2026 09:00:00 +0000' }),
    );
  }
  const imported = await runSkimmer([
    '--data',
    template,
    'import',
    ...['Inbox', 'Projects', 'Receipts'].map((b) => join(mail, b)),
  ]);
  expect(imported.code).toBe(0);
  // An account that can send, so a send that ran sits in the outbox. Nothing listens on its ports.
  const db = openDatabase(join(template, 'skimmer.db'));
  try {
    await prepareAccounts(db, createKeyVault(db, fileSealer(template))).add({
      name: 'work',
      user: 'bob@example.com',
      password: 'secret',
      imap: { host: '127.0.0.1', port: 1, tls: 'none' },
      smtp: { host: '127.0.0.1', port: 1, tls: 'none' },
    });
  } finally {
    db.close();
  }
}, 120_000);

afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

function copy(): string {
  copies += 1;
  const dir = join(root, `copy-${copies}`);
  cpSync(template, dir, { recursive: true });
  return dir;
}

function snapshotOf(dir: string): Snapshot {
  const db = new Database(join(dir, 'skimmer.db'), { readonly: true });
  try {
    return snapshot(db as unknown as Db);
  } finally {
    db.close();
  }
}

/** The agent whose client accepts every elicitation by itself; what it was asked is kept. */
async function autoAccepting(dir: string, flags: string[] = []) {
  const elicited: string[] = [];
  const agent = await startMcp(dir, {
    name: 'auto-accepting-agent',
    flags,
    elicit: (message) => {
      elicited.push(message);
      return 'accept';
    },
  });
  open.push(agent);
  return { agent, elicited };
}

/** The agent reads as the model would (the search, every thread found, the injected one). */
async function readAsTheModel(agent: McpSession, ctx: Ctx, s: Scenario): Promise<void> {
  const found = await agent.client.callTool({ name: 'search_mail', arguments: { query: s.query } });
  const threads = new Set<number>([ctx.thread('inj')]);
  for (const m of text(found).matchAll(/"threadId":(\d+)/g)) threads.add(Number(m[1]));
  for (const threadId of threads)
    await agent.client.callTool({ name: 'read_thread', arguments: { threadId } });
}

const text = (r: Awaited<ReturnType<McpSession['client']['callTool']>>) =>
  (r.content as { text: string }[]).map((c) => c.text).join('\n');

/** The effects no client's accept may make under the default: a send, a delete, a grant. */
const notTheClients = (effects: Effect[]) => effects.filter((e) => e.kind !== 'write');

/** Waits for `find` to return something, looking every 20 ms (the test's own timeout bounds it). */
async function until<T>(find: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(chosen.map((s) => [s.id, s] as const))(
  'an auto-accepting agent told by an email (%s) to send and trash',
  (_id, s) => {
    test('by default, with the app closed, the send and the trash are refused at once and change nothing', async () => {
      const dir = copy();
      const ctx = contextOf(join(dir, 'skimmer.db'), s);
      const { agent, elicited } = await autoAccepting(dir);
      await readAsTheModel(agent, ctx, s);
      const before = snapshotOf(dir);
      for (const attack of s.attacks) {
        const r = await agent.client.callTool({ name: attack.name, arguments: attack.args(ctx) });
        if (irreversible(attack.name)) {
          expect(r.isError).toBe(true);
          expect(text(r)).toContain('Skimmer is not open');
        }
      }
      // Only the writes were put to the client, which accepted them.
      const writes = s.attacks.filter((a) => !irreversible(a.name));
      expect(elicited).toHaveLength(writes.length);
      for (const m of elicited) expect(m).not.toMatch(/sends mail|to the Trash/);
      expect(notTheClients(diff(before, snapshotOf(dir)))).toEqual([]);
    });

    test("by default, with the app open, the send and the trash wait on the app's card, and its denial stands", async () => {
      const dir = copy();
      const app: App = createApp({ dataDir: dir, mode: 'browser', background: true });
      open.push({ close: () => app.close() });
      const ctx = contextOf(join(dir, 'skimmer.db'), s);
      const { agent, elicited } = await autoAccepting(dir);
      await readAsTheModel(agent, ctx, s);
      const before = snapshotOf(dir);
      const carded: string[] = [];
      for (const attack of s.attacks) {
        const call = agent.client.callTool({ name: attack.name, arguments: attack.args(ctx) });
        if (!irreversible(attack.name)) {
          await call;
          continue;
        }
        const card = await until(async () => {
          const pending = await dispatch(app.handlers, 'agent:pending', {}, true);
          if (!pending.ok) return undefined;
          return (pending.value as AgentRequest[]).find((r) => r.call.name === attack.name);
        });
        carded.push(card.call.name);
        expect(card.client).toBe('auto-accepting-agent 1.0');
        // While it waits, nothing was sent or trashed.
        expect(notTheClients(diff(before, snapshotOf(dir)))).toEqual([]);
        const answered = await dispatch(
          app.handlers,
          'agent:answer',
          { id: card.id, argsHash: card.call.argsHash, decision: 'deny' },
          true,
        );
        expect(answered.ok).toBe(true);
        const r = await call;
        expect(r.isError).toBe(true);
        expect(text(r)).toContain('declined');
      }
      expect(carded).toEqual(s.attacks.filter((a) => irreversible(a.name)).map((a) => a.name));
      expect(elicited).toHaveLength(s.attacks.length - carded.length);
      expect(notTheClients(diff(before, snapshotOf(dir)))).toEqual([]);
    });

    test("with --approve-in client, the client's accept runs the send and the trash", async () => {
      const dir = copy();
      const ctx = contextOf(join(dir, 'skimmer.db'), s);
      const { agent, elicited } = await autoAccepting(dir, ['--approve-in', 'client']);
      await readAsTheModel(agent, ctx, s);
      const before = snapshotOf(dir);
      for (const attack of s.attacks) {
        const r = await agent.client.callTool({ name: attack.name, arguments: attack.args(ctx) });
        expect(r.isError).toBe(false);
      }
      expect(elicited).toHaveLength(s.attacks.length);
      const effects = diff(before, snapshotOf(dir));
      expect(effects.filter((e) => e.kind === 'send' && e.table === 'outbox')).toHaveLength(1);
      expect(effects.some((e) => e.kind === 'delete' && e.table === 'messages')).toBe(true);
    });
  },
);
