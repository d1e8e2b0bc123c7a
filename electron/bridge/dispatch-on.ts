// SECURITY: every bridge request, from Electron IPC and from the browser mode's WebSocket alike, passes
// here: the sender check first, then the channel's zod schema, then the handler. A bad request gets a
// typed error envelope; an unexpected exception never leaks its text (it may carry paths or data).
// The table of channels is a parameter so that a command needing two channels (search-reader.ts) loads their
// schemas alone: building every channel's schemas is a fifth of a one-shot command's start (issue 18).
import type { z } from 'zod';
import type { BridgeError, Envelope, ErrorCode } from '../../shared/contract/index.ts';
import { toFailure } from './errors.ts';

export type ChannelTable = Readonly<Record<string, { request: z.ZodType; response: z.ZodType }>>;

/** One handler per channel of the table: the parsed request in, the response (or its promise) out. */
export type HandlersOf<T extends ChannelTable> = {
  [C in keyof T]: (
    request: z.output<T[C]['request']>,
  ) => z.output<T[C]['response']> | Promise<z.output<T[C]['response']>>;
};

function fail(code: ErrorCode, message: string): { ok: false; error: BridgeError } {
  return { ok: false, error: { code, message } };
}

export async function dispatchOn<T extends ChannelTable>(
  table: T,
  handlers: HandlersOf<T>,
  channel: string,
  raw: unknown,
  senderTrusted: boolean,
  onUnexpected: (channel: string, error: unknown) => void = () => {},
): Promise<Envelope<unknown>> {
  if (!senderTrusted) return fail('forbidden', 'This request did not come from Skimmer.');
  // SECURITY: own properties only, so `__proto__` or `toString` names no channel.
  const schemas = Object.hasOwn(table, channel) ? table[channel] : undefined;
  if (!schemas) return fail('invalid_request', 'Skimmer has no such request.');
  const parsed = schemas.request.safeParse(raw);
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
