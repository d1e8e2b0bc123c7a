// `run:cancel`: Stop on any stream, whatever job runs it (bridge/streams.ts).
import type { Handlers } from '../dispatch.ts';
import type { StreamHub } from '../streams.ts';

export function streamHandlers(streams: StreamHub): Pick<Handlers, 'run:cancel'> {
  return { 'run:cancel': (r) => ({ cancelled: streams.cancel(r.streamId) }) };
}
