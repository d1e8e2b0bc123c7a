// Your addresses (DESIGN §11, "Reply, reply all, forward"): what a reply is sent from and who reply all leaves
// out. Each account's own address is one (listed from the account, so it comes and goes with it); the user adds
// others, the addresses imported mail was sent to. Any of them may have a name and a signature. Owns
// `identities` (migration 0024). An address is stored as `addressKey` compares it, lower-cased, so once.
import type { Identity, You } from '../../shared/compose/composition.ts';
import { addressKey, parseMailbox } from '../../shared/mail-address.ts';
import type { Db } from '../db/open.ts';
import { IdentityError } from './identity-error.ts';

/** One of your addresses; `account` names the account whose own address it is (null: one you added). */
export type IdentityView = Identity & { account: string | null };

export const maxNameLength = 200;
export const maxSignatureLength = 10_000;

type Row = { address: string; name: string | null; signature: string | null };
type AccountRow = { id: number; name: string; username: string };

/** What `add` sets: a field left out stays as it was; null or blank clears it. */
export type IdentityChange = { address: string; name?: string | null; signature?: string | null };

export function prepareIdentities(db: Db, now: () => number = Date.now) {
  const stored = db.prepare<[], Row>('SELECT address, name, signature FROM identities ORDER BY address');
  const byAddress = db.prepare<[string], Row>(
    'SELECT address, name, signature FROM identities WHERE address = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO identities (address, name, signature, created_at) VALUES (@address, @name, @signature, @at)
     ON CONFLICT (address) DO UPDATE SET name = excluded.name, signature = excluded.signature`,
  );
  const drop = db.prepare<[string]>('DELETE FROM identities WHERE address = ?');
  const accounts = db.prepare<[], AccountRow>(
    'SELECT a.id, a.name, i.username FROM accounts a JOIN imap_accounts i ON i.account_id = a.id ORDER BY a.name',
  );

  // An account's address is its login when that is a mail address (most providers log in by address).
  const accountAddresses = () =>
    accounts.all().flatMap((a) => {
      const address = parseMailbox(a.username);
      return address ? [{ id: a.id, account: a.name, address: addressKey(address) }] : [];
    });

  function list(): IdentityView[] {
    const rows = new Map(stored.all().map((r) => [r.address, r]));
    const own: IdentityView[] = [];
    for (const a of accountAddresses()) {
      if (own.some((o) => o.address === a.address)) continue; // two accounts on one address
      const r = rows.get(a.address);
      own.push({
        address: a.address,
        name: r?.name ?? null,
        signature: r?.signature ?? null,
        account: a.account,
      });
      rows.delete(a.address);
    }
    return [...own, ...[...rows.values()].map((r) => ({ ...r, account: null }))];
  }

  const find = (address: string) => list().find((i) => i.address === address);

  return {
    /** The accounts' addresses (by account name), then the ones you added (by address). */
    list,

    /** Adds one of your addresses, or changes its name or signature; `added` is false when it was there. */
    add(change: IdentityChange): { identity: IdentityView; added: boolean } {
      const address = checkedAddress(change.address);
      return db.transaction(() => {
        const before = find(address);
        const row = byAddress.get(address);
        upsert.run({
          address,
          name: change.name === undefined ? (row?.name ?? null) : checkedName(change.name),
          signature:
            change.signature === undefined ? (row?.signature ?? null) : checkedSignature(change.signature),
          at: now(),
        });
        return { identity: find(address) as IdentityView, added: before === undefined };
      })();
    },

    /** Removes an address you added; false when it was not one. An account's own address stays while it does. */
    remove(address: string): boolean {
      const key = addressKey(address);
      const own = accountAddresses().find((a) => a.address === key);
      if (own) {
        throw new IdentityError(
          'account_address',
          `${key} is the address of the account "${own.account}": it stays one of yours while the account does.`,
        );
      }
      return drop.run(key).changes > 0;
    },

    /** What a reply to a message of this account (null: imported mail) is composed with (shared/compose). */
    you(accountId: number | null): You {
      const own = accountId === null ? undefined : accountAddresses().find((a) => a.id === accountId);
      return { identities: list().map(({ account: _, ...i }) => i), accountAddress: own?.address ?? null };
    },
  };
}

function checkedAddress(address: string): string {
  const parsed = parseMailbox(address);
  if (!parsed) throw new IdentityError('invalid_address', 'Give one mail address, like name@example.com.');
  return addressKey(parsed);
}

// SECURITY: the name goes into the From header of what is sent; a line break in it would start a header of its own.
function checkedName(name: string | null): string | null {
  const trimmed = (name ?? '').trim();
  if (trimmed === '') return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(trimmed) || trimmed.length > maxNameLength) {
    throw new IdentityError('invalid_name', `Give a name on one line, at most ${maxNameLength} characters.`);
  }
  return trimmed;
}

// Line ends as LF, trailing spaces and blank lines off; control characters other than tab and line end dropped
// (a signature file from a word processor can carry form feeds).
function checkedSignature(signature: string | null): string | null {
  const text = (signature ?? '')
    .replace(/\r\n?/g, '\n')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is dropped
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+|\s+$/g, '');
  if (text === '') return null;
  if (text.length > maxSignatureLength) {
    throw new IdentityError(
      'invalid_signature',
      `A signature can be at most ${maxSignatureLength} characters.`,
    );
  }
  return text;
}
