// The model-service channels of the bridge: the services the user added, their keys (in the vault), prices
// and mail consent; listing a service's models and testing it reach the service itself.
import type { prepareModelChoices } from '../../ai/model-choices.ts';
import type { prepareServices } from '../../ai/services.ts';
import { listModels, testConnection } from '../../ai/transport/list-models.ts';
import type { Handlers } from '../dispatch.ts';

type Deps = {
  services: ReturnType<typeof prepareServices>;
  modelChoices: ReturnType<typeof prepareModelChoices>;
};

export function serviceHandlers({
  services,
  modelChoices,
}: Deps): Pick<
  Handlers,
  | 'service:list'
  | 'service:add'
  | 'service:update'
  | 'service:price'
  | 'service:models'
  | 'service:test'
  | 'service:consent'
  | 'service:remove'
  | 'model:defaults'
  | 'model:setDefault'
  | 'model:lists'
> {
  return {
    'service:list': () => services.list(),
    'service:add': (r) => services.add(r),
    'service:update': (r) => services.update(r),
    'service:price': (r) => services.setPrice(r.id, r.inputPrice),
    'service:models': async (r) => {
      const c = await services.connection(r.id);
      // A refusal crosses as its code and Skimmer's sentence (bridge/errors.ts); the provider's detail stays here.
      const listed = await listModels(c, c.key);
      // Kept for the pickers, for the settings it was listed with (model-choices.ts).
      if (listed.ok) modelChoices.remember(r.id, c.version, listed.models);
      return listed.ok ? { listed: true, models: listed.models } : { listed: false, reason: listed.reason };
    },
    'service:test': async (r) => {
      const c = await services.connection(r.id);
      return testConnection(c, c.key);
    },
    'service:consent': (r) => services.setMailConsent(r.id, r.allow),
    'service:remove': (r) => ({ removed: services.remove(r.id) }),
    'model:defaults': () => modelChoices.defaults(),
    'model:setDefault': (r) => modelChoices.setDefault(r.task, r.model),
    'model:lists': () => modelChoices.models(),
  };
}
