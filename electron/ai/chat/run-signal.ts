// What ends a model run early (DESIGN §5, §6): the user's Stop, or the service edited or removed mid-flight,
// which makes the run `stale`. One signal for both, and a way to tell them apart afterwards.
import type { prepareServices } from '../services.ts';

export type RunSignal = { signal: AbortSignal; stale: () => boolean; dispose: () => void };

export function runSignal(
  services: Pick<ReturnType<typeof prepareServices>, 'watch'>,
  serviceId: number,
  userStop?: AbortSignal,
): RunSignal {
  const controller = new AbortController();
  const stop = () => controller.abort();
  userStop?.addEventListener('abort', stop, { once: true });
  if (userStop?.aborted) stop();
  let stale = false;
  const unwatch = services.watch(serviceId, () => {
    stale = true;
    stop();
  });
  return {
    signal: controller.signal,
    stale: () => stale,
    dispose: () => {
      unwatch();
      userStop?.removeEventListener('abort', stop);
    },
  };
}
