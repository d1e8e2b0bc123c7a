// Model services (DESIGN §5): saved after the base URL rules pass, with no network. Editing bumps
// `version`, so a run that started on the old settings can tell it is stale. The key goes to the vault
// under `service:<id>`; views only ever say `hasKey`.
import type { ServiceKind, ServiceView } from '../../shared/contract/index.ts';
import { isLoopback } from '../../shared/loopback.ts';
import { checkBaseUrl, endpointFor } from '../../shared/service-url.ts';
import type { Db } from '../db/open.ts';
import type { KeyVault } from '../secrets/key-vault.ts';
import { AssistantError } from './assistant-error.ts';

type Row = {
  id: number;
  name: string;
  kind: ServiceKind;
  base_url: string;
  version: number;
  mail_consent_version: number | null;
  input_price: number | null;
};

export const serviceKeyName = (id: number) => `service:${id}`;

export function prepareServices(db: Db, vault: KeyVault, now: () => number = Date.now) {
  const all = db.prepare<[], Row>(
    'SELECT id, name, kind, base_url, version, mail_consent_version, input_price FROM services ORDER BY name',
  );
  const byId = db.prepare<[number], Row>(
    'SELECT id, name, kind, base_url, version, mail_consent_version, input_price FROM services WHERE id = ?',
  );
  const byName = db.prepare<[string], Row>(
    'SELECT id, name, kind, base_url, version, mail_consent_version, input_price FROM services WHERE name = ?',
  );
  const insert = db.prepare<[string, string, string, number]>(
    'INSERT INTO services (name, kind, base_url, created_at) VALUES (?, ?, ?, ?)',
  );
  const update = db.prepare<[string, string, number]>(
    'UPDATE services SET name = ?, base_url = ?, version = version + 1 WHERE id = ?',
  );
  const del = db.prepare<[number]>('DELETE FROM services WHERE id = ?');
  // A price is bookkeeping, not a setting a run depends on: it bumps no version and asks no consent again.
  const price = db.prepare<[number | null, number]>('UPDATE services SET input_price = ? WHERE id = ?');
  const consent = db.prepare<[number | null, number]>(
    'UPDATE services SET mail_consent_version = ? WHERE id = ?',
  );
  const remote = (r: Row) => !isLoopback(new URL(r.base_url).hostname);
  // Consent holds for the settings it was given for; an edit (a new version) asks again.
  const mailAllowed = (r: Row) => !remote(r) || r.mail_consent_version === r.version;

  const view = (r: Row): ServiceView => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    baseUrl: r.base_url,
    endpoint: endpointFor(r.kind, r.base_url),
    version: r.version,
    hasKey: vault.has(serviceKeyName(r.id)),
    remote: remote(r),
    mailAllowed: mailAllowed(r),
    inputPrice: r.input_price,
  });

  const base = (raw: string, kind: ServiceKind): string => {
    const checked = checkBaseUrl(raw, kind);
    if (!checked.ok) throw new AssistantError('invalid', checked.reason);
    return checked.baseUrl;
  };

  const unique = (name: string, except?: number) => {
    const other = byName.get(name);
    if (other && other.id !== except) {
      throw new AssistantError('invalid', `There is already a service named "${name}".`);
    }
  };

  const found = (id: number): Row => {
    const row = byId.get(id);
    if (!row) throw new AssistantError('not_found', 'That service does not exist.');
    return row;
  };

  // Runs in flight watch their service: any edit or removal makes them stale (DESIGN §5).
  const watchers = new Map<number, Set<() => void>>();
  const changed = (id: number) => {
    for (const w of watchers.get(id) ?? []) w();
  };

  return {
    list: (): ServiceView[] => all.all().map(view),

    watch(id: number, onChange: () => void): () => void {
      const set = watchers.get(id) ?? new Set();
      set.add(onChange);
      watchers.set(id, set);
      return () => set.delete(onChange);
    },

    async add(s: { name: string; kind: ServiceKind; baseUrl: string; key?: string }): Promise<ServiceView> {
      const baseUrl = base(s.baseUrl, s.kind);
      unique(s.name);
      const id = Number(insert.run(s.name, s.kind, baseUrl, now()).lastInsertRowid);
      if (s.key) await vault.set(serviceKeyName(id), s.key);
      return view(found(id));
    },

    async update(u: { id: number; name?: string; baseUrl?: string; key?: string; removeKey?: true }) {
      const row = found(u.id);
      const name = u.name ?? row.name;
      unique(name, row.id);
      const baseUrl = u.baseUrl === undefined ? row.base_url : base(u.baseUrl, row.kind);
      update.run(name, baseUrl, row.id);
      if (u.key) await vault.set(serviceKeyName(row.id), u.key);
      else if (u.removeKey) vault.remove(serviceKeyName(row.id));
      changed(row.id);
      return view(found(row.id));
    },

    /** US dollars per million input tokens, or null for none. */
    setPrice(id: number, inputPrice: number | null): ServiceView {
      const row = found(id);
      price.run(inputPrice, row.id);
      return view(found(row.id));
    },

    // The saved settings and key of one service, for the code that talks to it.
    async connection(id: number) {
      const row = found(id);
      return {
        kind: row.kind,
        baseUrl: row.base_url,
        version: row.version,
        key: await vault.get(serviceKeyName(id)),
      };
    },

    /** The user's answer for a service not on this computer (DESIGN §5). */
    setMailConsent(id: number, allow: boolean): ServiceView {
      const row = found(id);
      consent.run(allow ? row.version : null, id);
      return view(found(id));
    },

    /**
     * SECURITY: mail and document text leave this computer only for a service the user agreed to (DESIGN §5).
     * Called before anything that would send them (tool runs, judge, summaries); throws the sentence to show.
     */
    requireMailConsent(id: number): void {
      const row = found(id);
      if (mailAllowed(row)) return;
      throw new AssistantError(
        'no_consent',
        `Skimmer has not sent mail to ${endpointFor(row.kind, row.base_url)} yet. Allow it for "${row.name}" in the model services first.`,
      );
    },

    idByName(name: string): number {
      const row = byName.get(name);
      if (!row) throw new AssistantError('not_found', `There is no model service named "${name}".`);
      return row.id;
    },

    remove(id: number): boolean {
      vault.remove(serviceKeyName(id));
      changed(id);
      return del.run(id).changes > 0;
    },
  };
}
