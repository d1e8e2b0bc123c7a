// One model choice (DESIGN §5, "Choosing a model"): the default model of each task (the chat, summaries and
// drafts, triage), and each service's model list as it last answered "List models". Owns `model_defaults` and
// `service_models`. A default names its service by id and is shown as `service/model` with the service's name of
// today; a cached list counts only for the service's settings it was listed with (an edited base URL may reach
// another server, whose models are not these).
import type { ModelDefaults, ModelTask, ServiceModels } from '../../shared/contract/index.ts';
import type { Db } from '../db/open.ts';
import { AssistantError } from './assistant-error.ts';
import { splitModelRef } from './model-access.ts';
import type { prepareServices } from './services.ts';

type Services = Pick<ReturnType<typeof prepareServices>, 'idByName' | 'list'>;

export function prepareModelChoices(db: Db, services: Services, now: () => number = Date.now) {
  const defaults = db.prepare<[], { task: ModelTask; name: string; model: string }>(
    `SELECT d.task, s.name, d.model FROM model_defaults d JOIN services s ON s.id = d.service_id`,
  );
  const setDefault = db.prepare<[ModelTask, number, string, number]>(
    `INSERT INTO model_defaults (task, service_id, model, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (task) DO UPDATE SET service_id = excluded.service_id, model = excluded.model,
         updated_at = excluded.updated_at`,
  );
  const clearDefault = db.prepare<[ModelTask]>('DELETE FROM model_defaults WHERE task = ?');
  const cached = db.prepare<
    [],
    { service_id: number; service_version: number; models_json: string; listed_at: number }
  >('SELECT service_id, service_version, models_json, listed_at FROM service_models');
  const remember = db.prepare<[number, number, string, number]>(
    `INSERT INTO service_models (service_id, service_version, models_json, listed_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (service_id) DO UPDATE SET service_version = excluded.service_version,
         models_json = excluded.models_json, listed_at = excluded.listed_at`,
  );

  function readDefaults(): ModelDefaults {
    const out: ModelDefaults = { chat: null, summary: null, triage: null };
    for (const row of defaults.all()) out[row.task] = `${row.name}/${row.model}`;
    return out;
  }

  return {
    defaults: readDefaults,

    /** Sets (or with null clears) the default of one task; the service must exist. */
    setDefault(task: ModelTask, ref: string | null): ModelDefaults {
      if (ref === null) clearDefault.run(task);
      else {
        const { service, model } = splitModelRef(ref.trim());
        setDefault.run(task, services.idByName(service), model, now());
      }
      return readDefaults();
    },

    /** Every saved service with its cached model list, by name. */
    models(): ServiceModels[] {
      const lists = new Map(cached.all().map((row) => [row.service_id, row]));
      return services.list().map((s) => {
        const list = lists.get(s.id);
        const current = list !== undefined && list.service_version === s.version;
        return {
          service: s.name,
          kind: s.kind,
          models: current ? (JSON.parse(list.models_json) as string[]) : null,
          listedAt: current ? list.listed_at : null,
        };
      });
    },

    /** Keeps what a service listed, for the settings (version) it was listed with. */
    remember(serviceId: number, version: number, models: readonly string[]): void {
      remember.run(serviceId, version, JSON.stringify([...models]), now());
    },

    /** The model a task runs on when its caller names none; a sentence saying how to choose one otherwise. */
    modelFor(task: ModelTask, given: string | undefined): string {
      const ref = given?.trim() || readDefaults()[task];
      if (!ref) {
        throw new AssistantError(
          'invalid',
          `Choose a model: name one as service/model, or set a default ${taskNames[task]} model in Settings.`,
        );
      }
      return ref;
    },
  };
}

const taskNames: Record<ModelTask, string> = { chat: 'chat', summary: 'summary', triage: 'triage' };
