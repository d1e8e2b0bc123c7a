// `mail:search` over the bridge: a query Skimmer cannot read is the page's `invalid_request`, in the search's
// own sentence, never an internal error and never zero results.
import { afterAll, describe, expect, test } from 'vitest';
import { createApp } from '../electron/app.ts';
import { call, callRaw } from './support/bridge.ts';
import { tempDir } from './support/temp.ts';

const app = createApp({ dataDir: tempDir(), mode: 'browser' });
afterAll(() => app.close());

describe('mail:search', () => {
  test.each([
    ['is:unread has:drive', 'Skimmer does not know the search operator has:drive; has: takes attachment.'],
    ['newer_than:7x', 'newer_than: takes a number and d, w, m or y'],
    ['label:"Project X"', 'There is no label named "Project X".'],
  ])('answers %s with invalid_request naming it', async (query, sentence) => {
    const r = await callRaw(app, 'mail:search', { query });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(r.ok ? '' : r.error.message).toContain(sentence);
  });

  test('answers a query it can read, matching nothing, with no hits', async () => {
    expect(await call(app, 'mail:search', { query: 'is:unread newer_than:7d' })).toEqual([]);
  });
});
