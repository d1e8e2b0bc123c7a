// How a caller reaches a model (DESIGN §5): name it as `service/model`, find the service, and get its
// connection. Whatever sends mail or document text, or a conversation that holds them, goes through
// connectForMail, which asks for the user's consent first; only the user's own words may go through
// connectForOwnWords. No caller puts the steps together itself, so none can forget the consent.
import { AssistantError } from './assistant-error.ts';
import type { prepareServices } from './services.ts';

type Services = Pick<ReturnType<typeof prepareServices>, 'idByName' | 'requireMailConsent' | 'connection'>;
export type ModelAccess = {
  serviceId: number;
  model: string;
  connection: Awaited<ReturnType<Services['connection']>>;
};

// `service/model`: the first "/" ends the service name; model ids may contain more (DESIGN §5).
export function splitModelRef(ref: string): { service: string; model: string } {
  const slash = ref.indexOf('/');
  if (slash <= 0 || slash === ref.length - 1) {
    throw new AssistantError('invalid', 'Name the model as service/model, for example local/llama3.2.');
  }
  return { service: ref.slice(0, slash), model: ref.slice(slash + 1) };
}

/**
 * SECURITY: the only way to a model that is sent mail or document text. A service off this computer that the
 * user has not allowed (or has edited since) is refused with `no_consent` before its key is read or anything
 * is sent (DESIGN §5).
 */
export async function connectForMail(services: Services, modelRef: string): Promise<ModelAccess> {
  const { service, model } = splitModelRef(modelRef);
  const serviceId = services.idByName(service);
  services.requireMailConsent(serviceId);
  return { serviceId, model, connection: await services.connection(serviceId) };
}

/** Plain chat without tools or mail: only the user's own words go, so no consent is asked (DESIGN §5). */
export async function connectForOwnWords(services: Services, modelRef: string): Promise<ModelAccess> {
  const { service, model } = splitModelRef(modelRef);
  const serviceId = services.idByName(service);
  return { serviceId, model, connection: await services.connection(serviceId) };
}
