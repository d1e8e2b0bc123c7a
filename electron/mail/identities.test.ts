// Your addresses against a real SQLite file, with real accounts beside them.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { tempDir } from '../../test/support/temp.ts';
import { type Db, openDatabase } from '../db/open.ts';
import { fileSealer } from '../secrets/file-vault.ts';
import { createKeyVault } from '../secrets/key-vault.ts';
import { prepareAccounts } from './accounts.ts';
import { maxNameLength, maxSignatureLength, prepareIdentities } from './identities.ts';
import { IdentityError } from './identity-error.ts';

function open(): { db: Db; file: string; dir: string } {
  const dir = tempDir();
  const file = join(dir, 'skimmer.db');
  return { db: openDatabase(file), file, dir };
}

const server = { host: '127.0.0.1', port: 1143, tls: 'none' as const };

async function addAccount(db: Db, dir: string, name: string, user: string): Promise<number> {
  const accounts = prepareAccounts(db, createKeyVault(db, fileSealer(dir)));
  return (await accounts.add({ name, user, password: 'pw', imap: server })).id;
}

const refusal = (run: () => unknown): IdentityError['reason'] | null => {
  try {
    run();
    return null;
  } catch (e) {
    if (e instanceof IdentityError) return e.reason;
    throw e;
  }
};

describe('your addresses', () => {
  test('are stored lower-cased, once, and still there when the file is opened again', () => {
    const { db, file } = open();
    const identities = prepareIdentities(db);
    expect(identities.add({ address: ' Priya@Example.COM ', name: ' Priya Raman ' })).toEqual({
      identity: { address: 'priya@example.com', name: 'Priya Raman', signature: null, account: null },
      added: true,
    });
    expect(identities.add({ address: 'PRIYA@example.com' }).added).toBe(false);
    db.close();

    const again = openDatabase(file);
    expect(prepareIdentities(again).list()).toEqual([
      { address: 'priya@example.com', name: 'Priya Raman', signature: null, account: null },
    ]);
    expect(again.prepare('SELECT count(*) FROM identities').pluck().get()).toBe(1);
    again.close();
  });

  test('keep what a change leaves out, and clear what it sets blank', () => {
    const { db } = open();
    const identities = prepareIdentities(db);
    identities.add({ address: 'a@example.com', name: 'A', signature: 'Sig' });
    expect(identities.add({ address: 'a@example.com', name: 'A. Person' }).identity).toMatchObject({
      name: 'A. Person',
      signature: 'Sig',
    });
    expect(identities.add({ address: 'a@example.com', signature: '  \n' }).identity).toMatchObject({
      name: 'A. Person',
      signature: null,
    });
    expect(identities.add({ address: 'a@example.com', name: null }).identity.name).toBeNull();
  });

  test('keep a signature with LF line ends and without the blank lines around it', () => {
    const { db } = open();
    const identities = prepareIdentities(db);
    const { identity } = identities.add({
      address: 'a@example.com',
      signature: '\r\n\r\nPriya Raman  \r\nExample Ltd\f\r\n\r\n',
    });
    expect(identity.signature).toBe('Priya Raman\nExample Ltd');
  });

  test.each([
    ['an address that is not one', { address: 'not an address' }, 'invalid_address'],
    ['a list of addresses', { address: 'a@example.com, b@example.com' }, 'invalid_address'],
    ['a display name with the address', { address: 'A <a@example.com>' }, 'invalid_address'],
    [
      'a name with a line break (a header of its own)',
      { address: 'a@example.com', name: 'A\r\nBcc: x@y.example' },
      'invalid_name',
    ],
    ['a name too long', { address: 'a@example.com', name: 'n'.repeat(maxNameLength + 1) }, 'invalid_name'],
    [
      'a signature too long',
      { address: 'a@example.com', signature: 's'.repeat(maxSignatureLength + 1) },
      'invalid_signature',
    ],
  ])('refuse %s, and store nothing', (_what, change, reason) => {
    const { db } = open();
    const identities = prepareIdentities(db);
    expect(refusal(() => identities.add(change))).toBe(reason);
    expect(identities.list()).toEqual([]);
  });

  test('are removed by address, in any case; removing one that is not there says so', () => {
    const { db } = open();
    const identities = prepareIdentities(db);
    identities.add({ address: 'a@example.com' });
    identities.add({ address: 'b@example.com' });
    expect(identities.remove('A@Example.com')).toBe(true);
    expect(identities.remove('a@example.com')).toBe(false);
    expect(identities.list().map((i) => i.address)).toEqual(['b@example.com']);
  });

  test("include each account's own address, with the name and signature given to it", async () => {
    const { db, dir } = open();
    await addAccount(db, dir, 'work', 'Me@Work.Example');
    await addAccount(db, dir, 'login-only', 'me'); // a login that is no address is no address of yours
    const identities = prepareIdentities(db);
    identities.add({ address: 'old@example.com' });
    expect(identities.add({ address: 'me@work.example', signature: 'Me, at work' })).toEqual({
      identity: { address: 'me@work.example', name: null, signature: 'Me, at work', account: 'work' },
      added: false,
    });
    expect(identities.list()).toEqual([
      { address: 'me@work.example', name: null, signature: 'Me, at work', account: 'work' },
      { address: 'old@example.com', name: null, signature: null, account: null },
    ]);
  });

  test("keep an account's own address while the account is there", async () => {
    const { db, dir } = open();
    await addAccount(db, dir, 'work', 'me@work.example');
    const identities = prepareIdentities(db);
    expect(refusal(() => identities.remove('ME@work.example'))).toBe('account_address');
    expect(identities.list().map((i) => i.address)).toEqual(['me@work.example']);
  });

  test("are what a reply is composed with, the account's address its default", async () => {
    const { db, dir } = open();
    const id = await addAccount(db, dir, 'work', 'me@work.example');
    const identities = prepareIdentities(db);
    identities.add({ address: 'me@example.com', name: 'Me' });
    const all = [
      { address: 'me@work.example', name: null, signature: null },
      { address: 'me@example.com', name: 'Me', signature: null },
    ];
    expect(identities.you(id)).toEqual({ identities: all, accountAddress: 'me@work.example' });
    expect(identities.you(null)).toEqual({ identities: all, accountAddress: null });
  });
});
