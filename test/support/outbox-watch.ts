// What a page watching `account:watch` hears of the outbox (issue 5): every `outbox` event, per message id,
// in order, each parsed with the contract's schema. `clear` between tests: SQLite gives a new message the id
// of one that just left the outbox, and a change is told on the turn after it.
import type { App } from '../../electron/app.ts';
import { type OutboxItem, StreamMessage } from '../../shared/contract/index.ts';
import { call } from './bridge.ts';

export type OutboxWatch = {
  heard: Map<number, (OutboxItem | null)[]>;
  /** The states heard for a message, `gone` for an event without one. */
  states(id: number): string[];
  /** Waits out the turn on which the last test's changes are told, then forgets them. */
  clear(): Promise<void>;
};

export async function watchOutbox(app: App): Promise<OutboxWatch> {
  const heard = new Map<number, (OutboxItem | null)[]>();
  const { streamId } = await call(app, 'account:watch', {});
  app.streams.listen((m) => {
    const parsed = StreamMessage.parse(m);
    if (parsed.streamId !== streamId || parsed.event.type !== 'outbox') return;
    const { id, item } = parsed.event;
    heard.set(id, [...(heard.get(id) ?? []), item]);
  });
  return {
    heard,
    states: (id) => heard.get(id)?.map((item) => item?.state ?? 'gone') ?? [],
    async clear() {
      await new Promise((resolve) => setImmediate(resolve));
      heard.clear();
    },
  };
}
