// A move into the Trash or Spam is a delete (issue 27, item 4): an "Always" grant for moves, or the policy that lets
// writes run, once let an agent move the whole Inbox to Trash without a card. Every gate, grant, policy and card
// reads the call's own effect.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { toolsOver } from '../../../test/support/mail-tools.ts';
import { eml, tempDir } from '../../../test/support/temp.ts';
import { type Db, openDatabase } from '../../db/open.ts';
import { runImport } from '../../mail/import/import-run.ts';
import { fileSealer } from '../../secrets/file-vault.ts';
import { createKeyVault } from '../../secrets/key-vault.ts';
import { prepareGrants } from '../safety/grants.ts';
import { ProvenanceTracker } from '../safety/provenance.ts';
import { prepareServices } from '../services.ts';
import { agentTools } from './agent.ts';
import { checkCall } from './call-gate.ts';
import { argsHash } from './call-ids.ts';
import { approvalView } from './chat-views.ts';
import { prepareConversations } from './conversations.ts';

const folders = ['Inbox', 'Projects', 'Trash', 'Junk', 'Papierkorb', 'Bin'];
let db: Db;
let inbox: number;

beforeAll(async () => {
  const dir = tempDir();
  for (const [i, folder] of folders.entries()) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'm.eml'), eml({ id: `<m${i}@x>`, subject: `In ${folder}` }));
  }
  db = openDatabase(join(dir, 'skimmer.db'));
  await runImport(
    db,
    folders.map((f) => join(dir, f)),
    { onProgress: () => {}, isCancelled: () => false },
  );
  // A server's Trash under a name of its own (RFC 6154 special use), as a German Dovecot names it.
  db.prepare(
    "INSERT INTO imap_folders (folder_id, path, special_use) SELECT id, 'Papierkorb', '\\Trash' FROM folders WHERE name = 'Papierkorb'",
  ).run();
  inbox = db.prepare("SELECT id FROM messages WHERE message_id = '<m0@x>'").pluck().get() as number;
});

function offered(policy: 'none' | 'read' | 'all', grant: boolean) {
  const grants = prepareGrants(db);
  for (const g of grants.list()) grants.revoke(g.id);
  if (grant) grants.grant('move_to_folder', 'write', 'always');
  const deps = {
    db,
    services: prepareServices(db, createKeyVault(db, fileSealer(tempDir()))),
    conversations: prepareConversations(db),
    grants,
    tools: toolsOver(db),
  };
  const tools = agentTools(deps, null, policy);
  return new Map(tools.map((t) => [t.name, t]));
}

function decide(policy: 'none' | 'read' | 'all', grant: boolean, folder: string) {
  const tools = offered(policy, grant);
  const args = { ids: [inbox], folder };
  // The user asked for it in their own words: nothing in the call came from an email.
  const checked = checkCall(tools, 'move_to_folder', args, new ProvenanceTracker([], `move it to ${folder}`));
  if (checked.kind !== 'checked') throw new Error(checked.output);
  const card = approvalView(
    {
      id: 'c1',
      argsHash: argsHash(checked.args),
      name: 'move_to_folder',
      args: checked.args,
      provenance: checked.provenance,
      held: false,
    },
    checked.tool,
  );
  return { gate: checked.gate, effect: card.effect, grantable: card.grantable };
}

describe('move_to_folder', () => {
  test.each([
    ['Trash', 'a folder named Trash'],
    ['trash', 'the same in lower case'],
    ['Junk', 'a folder named Junk'],
    ['Papierkorb', "a server's \\Trash under its own name"],
    ['Spam', 'the Spam place, before any folder has that name'],
    ['Deleted Items', "Exchange's name for the Trash"],
  ])('into %s (%s) always asks, as a delete, under any grant or policy', (folder) => {
    for (const [policy, grant] of [
      ['all', true],
      ['all', false],
      ['read', true],
      ['none', true],
    ] as const) {
      expect(decide(policy, grant, folder)).toEqual({ gate: 'approve', effect: 'delete', grantable: false });
    }
  });

  test.each(['Projects', 'Bin'])('into %s is a write that a grant or the policy lets run', (folder) => {
    expect(decide('read', true, folder)).toEqual({ gate: 'allow', effect: 'write', grantable: true });
    expect(decide('all', false, folder)).toEqual({ gate: 'allow', effect: 'write', grantable: true });
    expect(decide('read', false, folder)).toEqual({ gate: 'approve', effect: 'write', grantable: true });
  });
});
