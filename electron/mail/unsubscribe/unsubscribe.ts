// Unsubscribing from what a message's List-Unsubscribe offers (issue 29 §3): what the reader's button may offer
// (`options`), and doing it once the person confirmed (`run`). Never done on its own, and the assistant has no tool
// for it: only the `unsubscribe:*` channels call here, each from a click the person confirmed.
//
// One way is chosen (unsubscribe-method.ts): a one-click POST goes from here (one-click-post.ts); an email is
// queued in the outbox, from the address the message was sent to, with the outbox's Undo; a page to open is
// handed back to the renderer, which asks before it opens it. Each is kept on the sender (unsubscribe-store.ts),
// so every message of that sender says "Unsubscribed on DATE".
import type { AddressEntry, You } from '../../../shared/compose/composition.ts';
import { chooseFrom } from '../../../shared/compose/from.ts';
import type { Db } from '../../db/open.ts';
import type { Outbox } from '../send/outbox.ts';
import { type OneClickNet, postOneClick } from './one-click-post.ts';
import { UnsubscribeError } from './unsubscribe-error.ts';
import { chooseWay, type UnsubscribeWay } from './unsubscribe-method.ts';
import { prepareUnsubscribeStore, type UnsubscribeMethod } from './unsubscribe-store.ts';

/** Where the chosen way goes, as the confirmation names it: never more of the URI than its host for a request. */
export type UnsubscribeTarget =
  | { method: 'one-click'; host: string }
  | { method: 'mailto'; to: string[] }
  | { method: 'http'; host: string; url: string };

export type UnsubscribeOptions = {
  sender: string;
  /** null: the message offers no way Skimmer uses. */
  target: UnsubscribeTarget | null;
  unsubscribed: { at: number; method: UnsubscribeMethod } | null;
};

export type UnsubscribeResult = {
  method: UnsubscribeMethod;
  at: number;
  /** The email queued (mailto), which Undo takes back in the outbox's window. */
  outboxId: number | null;
  /** The page to open (http), after the renderer has asked. */
  url: string | null;
};

type Deps = {
  outbox: Pick<Outbox, 'senderFor' | 'queue'>;
  you: (accountId: number | null) => You;
  net?: OneClickNet;
  now?: () => number;
};

type MessageRow = {
  account_id: number;
  imap: number;
  from_name: string;
  from_addr: string;
  to_json: string;
  cc_json: string;
};

function targetOf(way: UnsubscribeWay): UnsubscribeTarget {
  if (way.method === 'mailto') return { method: 'mailto', to: way.mail.to };
  if (way.method === 'http') return { method: 'http', host: way.host, url: way.url };
  return { method: 'one-click', host: way.host };
}

export function prepareUnsubscribe(db: Db, deps: Deps) {
  const store = prepareUnsubscribeStore(db);
  const now = deps.now ?? Date.now;
  const message = db.prepare<[number], MessageRow>(
    `SELECT f.account_id, EXISTS (SELECT 1 FROM imap_accounts i WHERE i.account_id = f.account_id) AS imap,
       m.from_name, m.from_addr, m.to_json, m.cc_json
     FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?`,
  );

  function offered(messageId: number) {
    const offer = store.offer(messageId);
    if (!offer) throw new UnsubscribeError('not_found', `There is no message with id ${messageId}.`);
    return { offer, way: offer.links ? chooseWay(offer.links) : null };
  }

  /** The address to send an unsubscribe from: the one of yours the message was sent to, else the account's. */
  function fromAddress(messageId: number): string | null {
    const row = message.get(messageId);
    if (!row) return null;
    const original = {
      from: { name: row.from_name, address: row.from_addr },
      to: JSON.parse(row.to_json) as AddressEntry[],
      cc: JSON.parse(row.cc_json) as AddressEntry[],
    };
    return chooseFrom(original, deps.you(row.imap ? row.account_id : null))?.address ?? null;
  }

  return {
    options(messageId: number): UnsubscribeOptions {
      const { offer, way } = offered(messageId);
      return { sender: offer.sender, target: way ? targetOf(way) : null, unsubscribed: offer.unsubscribed };
    },

    /** Does the way `options` named; the caller has the person's confirmation of exactly that target. */
    async run(messageId: number): Promise<UnsubscribeResult> {
      const { offer, way } = offered(messageId);
      if (!way) {
        throw new UnsubscribeError('none', 'This message offers no way to unsubscribe that Skimmer can use.');
      }
      if (way.method === 'one-click') {
        await postOneClick(way.url, deps.net);
        const at = now();
        store.markSender(offer.sender, at, 'one-click');
        return { method: 'one-click', at, outboxId: null, url: null };
      }
      if (way.method === 'mailto') {
        const accountId = deps.outbox.senderFor(messageId);
        const from = fromAddress(messageId);
        return db.transaction((): UnsubscribeResult => {
          const item = deps.outbox.queue(accountId, {
            to: way.mail.to,
            cc: [],
            subject: way.mail.subject,
            body: way.mail.body,
            inReplyTo: null,
            fromAddress: from,
          });
          const at = now();
          store.markSender(offer.sender, at, 'mailto', item.id);
          return { method: 'mailto', at, outboxId: item.id, url: null };
        })();
      }
      // A page to open: kept on the sender now, as the person asked for it; what the page then asks is theirs.
      const at = now();
      store.markSender(offer.sender, at, 'http');
      return { method: 'http', at, outboxId: null, url: way.url };
    },
  };
}
