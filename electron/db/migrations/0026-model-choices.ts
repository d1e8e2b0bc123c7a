import type { Migration } from '../migrate.ts';

// One model choice (DESIGN §5, "Choosing a model"): the model each task uses unless changed where it runs, and
// the model list a service last gave when the user asked for it, so the picker can offer it without asking the
// service again. Both name the service by id, so a renamed service keeps its choices and a removed one takes
// them along; a cached list belongs to the service's settings as they were (`version`), like mail consent.
export const m0026: Migration = {
  version: 26,
  name: 'model-choices',
  up(db) {
    db.exec(`
      CREATE TABLE model_defaults (
        task TEXT PRIMARY KEY CHECK (task IN ('chat', 'summary', 'triage')),
        service_id INTEGER NOT NULL REFERENCES services(id) ON DELETE CASCADE,
        model TEXT NOT NULL CHECK (length(model) BETWEEN 1 AND 300),
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE service_models (
        service_id INTEGER PRIMARY KEY REFERENCES services(id) ON DELETE CASCADE,
        service_version INTEGER NOT NULL,
        models_json TEXT NOT NULL,
        listed_at INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
