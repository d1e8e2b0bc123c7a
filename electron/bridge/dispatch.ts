// SECURITY: every bridge request, from Electron IPC and from the browser mode's WebSocket alike, passes
// here: the sender check first, then the channel's zod schema, then the handler. A bad request gets a
// typed error envelope; an unexpected exception never leaks its text (it may carry paths or data).
import {
  type BridgeError,
  type Channel,
  channels,
  type Envelope,
  type ErrorCode,
  type ParsedRequest,
  type Response,
} from '../../shared/contract/index.ts';
import { toFailure } from './errors.ts';

type Handler<C extends Channel> = (request: ParsedRequest<C>) => Response<C> | Promise<Response<C>>;
export type Handlers = { [C in Channel]: Handler<C> };

function isChannel(name: string): name is Channel {
  return Object.hasOwn(channels, name);
}

function fail(code: ErrorCode, message: string): { ok: false; error: BridgeError } {
  return { ok: false, error: { code, message } };
}

export async function dispatch(
  handlers: Handlers,
  channel: string,
  raw: unknown,
  senderTrusted: boolean,
  onUnexpected: (channel: string, error: unknown) => void = () => {},
): Promise<Envelope<unknown>> {
  if (!senderTrusted) return fail('forbidden', 'This request did not come from Skimmer.');
  if (!isChannel(channel)) return fail('invalid_request', 'Skimmer has no such request.');
  const parsed = channels[channel].request.safeParse(raw);
  if (!parsed.success) return fail('invalid_request', describeIssues(parsed.error.issues));
  try {
    const handler = handlers[channel] as (r: unknown) => unknown;
    return { ok: true, value: await handler(parsed.data) };
  } catch (e) {
    const failure = toFailure(e);
    if (failure) return { ok: false, error: failure };
    onUnexpected(channel, e);
    return fail('internal', 'Something went wrong inside Skimmer; the details are in the log.');
  }
}

// Names the first problem by field, in words; never echoes the submitted value.
export function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const first = issues[0];
  if (!first) return 'The request is not valid.';
  const where = first.path.length > 0 ? ` (${first.path.map(String).join('.')})` : '';
  return `The request is not valid${where}: ${first.message}`.slice(0, 300);
}
