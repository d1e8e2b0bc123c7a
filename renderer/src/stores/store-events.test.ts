import { describe, expect, test } from 'vitest';
import { announce, onStoreEvent } from './store-events.ts';

describe('store events', () => {
  test('an announcement reaches the listeners of its type only, with its fields', async () => {
    const heard: unknown[] = [];
    const offDrafts = onStoreEvent('outbox_left_for_drafts', (event) => heard.push(event));
    const offSent = onStoreEvent('draft_sent', () => heard.push('sent'));
    await announce({ type: 'outbox_left_for_drafts', id: 7 });
    offDrafts();
    offSent();
    expect(heard).toEqual([{ type: 'outbox_left_for_drafts', id: 7 }]);
  });

  test('an announcement resolves only after what its listeners started has finished', async () => {
    let finishRead: () => void = () => {};
    let readDone = false;
    const off = onStoreEvent('draft_sent', async () => {
      await new Promise<void>((resolve) => {
        finishRead = resolve;
      });
      readDone = true;
    });
    const announced = announce({ type: 'draft_sent' }).then(() => readDone);
    finishRead();
    // What the announcement saw at the moment it resolved.
    expect(await announced).toBe(true);
    off();
  });

  test('a listener that disconnected hears nothing more, and the others still do', async () => {
    const heard: string[] = [];
    const offFirst = onStoreEvent('chat_run_ended', () => heard.push('first'));
    const offSecond = onStoreEvent('chat_run_ended', () => heard.push('second'));
    offFirst();
    await announce({ type: 'chat_run_ended' });
    offSecond();
    await announce({ type: 'chat_run_ended' });
    expect(heard).toEqual(['second']);
  });
});
