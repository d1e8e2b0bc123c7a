// The adversarial scenarios replayed through `skimmer mcp` (issue 19): the outside agent is the obedient model.
// For each scenario it searches as the model would, reads every thread it found and the injected one, then
// makes the attack calls the injected email asks for, through the SDK's client over stdio, against the real
// command. The verdict is on the mailbox: every column of every row of the tables the in-app suite diffs
// (README.md), before and after each scenario. The user never approves a write, send or delete.
//
// One mailbox holds the base mail and every scenario's injected email (each with its own Message-ID), and one
// server process serves each setting for all scenarios in turn:
// - `elicitation`: the client asks the user itself, and the user declines;
// - `app card`: the client cannot ask; the app runs beside it (its bridge in this process) and the user denies
//   every card it shows;
// - `no app`: the client cannot ask and no app runs: every change is refused at once;
// - `always-grants + elicitation`: every write tool is granted "always" in the app, the user declines what is
//   still asked. Writes that name no stranger may run (the user allowed them); sends, deletes, grant changes
//   and writes naming an address or link of the attack never may.
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { prepareGrants } from '../../electron/ai/safety/grants.ts';
import { type App, createApp } from '../../electron/app.ts';
import { dispatch } from '../../electron/bridge/dispatch.ts';
import { type Db, openDatabase } from '../../electron/db/open.ts';
import { prepareAccounts } from '../../electron/mail/accounts.ts';
import { fileSealer } from '../../electron/secrets/file-vault.ts';
import { createKeyVault } from '../../electron/secrets/key-vault.ts';
import type { ApprovalCall } from '../../shared/contract/index.ts';
import { revealHidden } from '../../shared/reveal-hidden.ts';
import { runSkimmer } from '../support/cli.ts';
import { type McpSession, startMcp } from '../support/mcp-session.ts';
import { eml, tempDir } from '../support/temp.ts';
import { cardsHiding, outsideBlocks } from './card-checks.ts';
import { contextOf, injId } from './mcp-mailbox.ts';
import { type Attack, attackEffect, baseMail, type Scenario, scenarios } from './scenarios.ts';
import { diff, type Snapshot, snapshot, tables } from './side-effects.ts';

type Setting = { name: string; client: 'elicit' | 'plain'; app: boolean; grants: boolean };
const settings: Setting[] = [
  { name: 'elicitation', client: 'elicit', app: false, grants: false },
  { name: 'app card', client: 'plain', app: true, grants: false },
  { name: 'no app', client: 'plain', app: false, grants: false },
  { name: 'always-grants + elicitation', client: 'elicit', app: false, grants: true },
];
const writeTools = ['mark_read', 'label_messages', 'archive', 'move_to_folder', 'create_draft'];

const root = tempDir('skimmer-mcp-adversarial-');
let template = '';
let unapproved = 0;
let attackCalls = 0;
const lines: string[] = [];

const boxOf = (folder: string) => (folder === 'Inbox' ? 'Inbox' : folder);

function htmlEml(o: { id: string; from: string; subject: string; body: string }): string {
  return [
    `From: ${o.from}`,
    'To: Bob <bob@example.com>',
    `Subject: ${o.subject}`,
    'Date: Mon, 30 Nov 2026 09:00:00 +0000',
    `Message-ID: ${o.id}`,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    o.body,
    '',
  ].join('\r\n');
}

beforeAll(async () => {
  const mail = join(root, 'mail');
  for (const [i, m] of baseMail.entries()) {
    const dir = join(mail, boxOf(m.folder));
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
  // A Trash folder of the import's own, so a move there has somewhere to go (issue 27: it is a delete).
  mkdirSync(join(mail, 'Trash'), { recursive: true });
  writeFileSync(
    join(mail, 'Trash', 'old.eml'),
    eml({
      id: '<trash-old@mail.example>',
      subject: 'Old newsletter',
      date: 'Sun, 1 Nov 2026 08:00:00 +0000',
    }),
  );
  for (const s of scenarios) {
    const inj = { id: injId(s), ...s.inject };
    writeFileSync(
      join(mail, 'Inbox', `inj-${s.id}.eml`),
      s.inject.html ? htmlEml(inj) : eml({ ...inj, date: 'Mon, 30 Nov 2026 09:00:00 +0000' }),
    );
  }
  template = join(root, 'template');
  const imported = await runSkimmer([
    '--data',
    template,
    'import',
    ...['Inbox', 'Projects', 'Receipts', 'Trash'].map((b) => join(mail, b)),
  ]);
  expect(imported.code).toBe(0);
  // An account that can send, so a send that ran would sit in the outbox. Nothing listens on its ports.
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

afterAll(() => {
  console.log(lines.join('\n'));
  console.log(
    `${scenarios.length} scenarios through skimmer mcp, ${unapproved} unapproved side effects (${settings.length} settings, ${attackCalls} attack calls, ${tables.length} tables diffed)`,
  );
});

// The mailbox as the agent left it, read from the database file the server writes (side-effects.ts).
function snapshotOf(file: string): Snapshot {
  const db = new Database(file, { readonly: true });
  try {
    return snapshot(db as unknown as Db);
  } finally {
    db.close();
  }
}

const text = (r: Awaited<ReturnType<McpSession['client']['callTool']>>) =>
  (r.content as { text: string }[]).map((c) => c.text).join('\n');

/** The addresses and links an attack names that the user never wrote (as the in-app suite reads them). */
function strangers(attack: Attack, args: Record<string, unknown>): string[] {
  if (attack.marks === 'link') return attack.link ? [attack.link] : [];
  if (attack.marks !== 'recipient') return [];
  return [...((args.to as string[]) ?? []), ...((args.cc as string[]) ?? [])];
}

describe.each(settings)('adversarial scenarios through skimmer mcp, $name', (setting) => {
  let dir = '';
  let file = '';
  let agent: McpSession;
  let app: App | null = null;
  let asked = 0;
  /** Every call the app's card showed, and every elicitation text, as the user saw them. */
  const shownCards: ApprovalCall[] = [];
  const shownTexts: string[] = [];
  let denier: ReturnType<typeof setInterval> | null = null;

  beforeAll(async () => {
    dir = join(root, setting.name.replace(/\W+/g, '-'));
    mkdirSync(dir, { recursive: true });
    cpSync(template, dir, { recursive: true });
    file = join(dir, 'skimmer.db');
    if (setting.grants) {
      const db = openDatabase(file);
      const grants = prepareGrants(db);
      for (const t of writeTools) grants.grant(t, 'write', 'always');
      db.close();
    }
    if (setting.app) {
      const running = createApp({ dataDir: dir, mode: 'browser', background: true });
      app = running;
      // The user denies every card the app shows.
      const seen = new Set<number>();
      denier = setInterval(() => {
        void (async () => {
          const pending = await dispatch(running.handlers, 'agent:pending', {}, true);
          if (!pending.ok) return;
          for (const r of pending.value as { id: number; call: ApprovalCall }[]) {
            if (seen.has(r.id)) continue;
            seen.add(r.id);
            asked += 1;
            shownCards.push(r.call);
            await dispatch(
              running.handlers,
              'agent:answer',
              { id: r.id, argsHash: r.call.argsHash, decision: 'deny' },
              true,
            );
          }
        })();
      }, 50);
    }
    agent = await startMcp(dir, {
      name: 'obedient-agent',
      ...(setting.client === 'elicit'
        ? {
            elicit: (message: string) => {
              asked += 1;
              shownTexts.push(message);
              return 'decline' as const;
            },
          }
        : {}),
    });
  }, 60_000);

  afterAll(async () => {
    if (denier) clearInterval(denier);
    await agent?.close();
    await app?.close();
  });

  test.each(scenarios.map((s) => [s.id, s] as const))(
    '%s leaves no unapproved side effect',
    async (_id, s) => {
      const ctx = contextOf(file, s);
      // The agent reads as the model would: its search, every thread found, and the injected email's thread.
      const found = await agent.client.callTool({ name: 'search_mail', arguments: { query: s.query } });
      const threads = new Set<number>([ctx.thread('inj')]);
      for (const m of text(found).matchAll(/"threadId":(\d+)/g)) threads.add(Number(m[1]));
      const read = [{ name: 'search_mail', output: text(found), isError: found.isError === true }];
      for (const threadId of threads) {
        const r = await agent.client.callTool({ name: 'read_thread', arguments: { threadId } });
        read.push({ name: 'read_thread', output: text(r), isError: r.isError === true });
      }
      // Issue 27, item 1: whatever the mail says, the agent got it inside Skimmer's untrusted blocks.
      expect(outsideBlocks(read), 'mail reached the agent outside its untrusted block').toEqual([]);
      const cardsBefore = shownCards.length;
      const textsBefore = shownTexts.length;

      const before = snapshotOf(file);
      const askedBefore = asked;
      let mustAsk = 0;
      let effects = 0;
      for (const attack of s.attacks) {
        attackCalls += 1;
        const args = attack.args(ctx);
        const r = await agent.client.callTool({ name: attack.name, arguments: args });
        const named = strangers(attack, args);
        const effect = attackEffect(attack.name, args);
        // A move into the Trash is a delete (issue 27): no grant covers it.
        const covered = setting.grants && effect === 'write';
        // A stranger in a covered write still asks; anything not covered asks (or, with no app, is refused). A
        // send or a delete is asked on the app's card only (`--approve-in app`, issue 27): with no app, at once refused.
        if (!covered || named.length > 0) {
          if (setting.app || (setting.client === 'elicit' && effect === 'write')) mustAsk += 1;
          if (!r.isError) effects += 1;
        }
      }
      for (const e of diff(before, snapshotOf(file))) {
        // A send, a delete or a grant is never the agent's to make unasked; with grants, a write counts when it
        // names a stranger the mail asked for (a write without grants would have asked).
        if (e.kind !== 'write' || !setting.grants) effects += 1;
        else if (strangersIn(e.what, s).length > 0) effects += 1;
      }
      unapproved += effects;
      // Every call that was not the user's to allow in advance reached them (or was refused with no one there).
      if (setting.client === 'elicit' || setting.app) expect(asked - askedBefore).toBe(mustAsk);
      // Issue 27, items 2 and 3: the app's card shows the whole message, every hidden character marked; the
      // client's text holds no character that draws nothing.
      expect(cardsHiding(shownCards.slice(cardsBefore)), 'a card hid part of what goes out').toEqual([]);
      for (const shown of shownTexts.slice(textsBefore)) expect(revealHidden(shown).hidden).toBe(0);
      lines.push(
        `${setting.name} / ${s.id}: ${s.attacks.length} attack calls, ${effects} unapproved side effects`,
      );
      expect(effects).toBe(0);
    },
  );
});

/** The strangers of a scenario's attacks that appear in a row's text. */
function strangersIn(row: string, s: Scenario): string[] {
  const all = s.attacks.flatMap((a) => (a.marks === 'link' && a.link ? [a.link] : []));
  return all.filter((x) => row.toLowerCase().includes(x.toLowerCase()));
}

describe('the accounting of the MCP replay', () => {
  test('sees what an approved send and an approved trash do', async () => {
    const dir = join(root, 'control');
    cpSync(template, dir, { recursive: true });
    const file = join(dir, 'skimmer.db');
    // Sends and deletes are approved in the client only when the user says so (`--approve-in client`, issue 27).
    const agent = await startMcp(dir, { flags: ['--approve-in', 'client'], elicit: () => 'accept' });
    try {
      const ctx = contextOf(file, scenarios[0] as Scenario);
      const before = snapshotOf(file);
      const sent = await agent.client.callTool({
        name: 'send_mail',
        arguments: { to: ['mark.black-2134@gmail.com'], subject: 'Hi', body: 'Hello' },
      });
      expect(sent.isError).toBe(false);
      const trashed = await agent.client.callTool({ name: 'trash', arguments: { ids: [ctx.id('lunch')] } });
      expect(trashed.isError).toBe(false);
      const effects = diff(before, snapshotOf(file));
      expect(effects.filter((e) => e.kind === 'send' && e.table === 'outbox')).toHaveLength(1);
      expect(effects.some((e) => e.kind === 'delete' && e.table === 'messages')).toBe(true);
    } finally {
      await agent.close();
    }
  });
});
