import { expect, test } from 'vitest';
import { latestOnly } from './latest-only.ts';

// Answers that arrive when the test says so, in any order.
function answers() {
  const asked: { query: string; answer: (value: string) => void }[] = [];
  const ask = (query: string) =>
    new Promise<string>((resolve) => {
      asked.push({ query, answer: resolve });
    });
  return { asked, ask };
}

test('a burst of requests asks for the first and the last only, and shows the last answer', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query, answer) => shown.push(`${query}=${answer}`));
  const first = search.request('m');
  search.request('me');
  search.request('mee');
  const last = search.request('meeting');
  expect(asked.map((a) => a.query)).toEqual(['m']);
  asked[0]?.answer('slow');
  await Promise.resolve();
  await Promise.resolve();
  expect(asked.map((a) => a.query)).toEqual(['m', 'meeting']);
  asked[1]?.answer('fast');
  await Promise.all([first, last]);
  expect(shown).toEqual(['meeting=fast']);
});

test('a stale answer never replaces a newer one', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query) => shown.push(query));
  const done = search.request('old');
  search.request('new');
  asked[0]?.answer('');
  await Promise.resolve();
  await Promise.resolve();
  asked[1]?.answer('');
  await done;
  expect(shown).toEqual(['new']);
});

test('a request alone is asked for and shown', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query, answer) => shown.push(`${query}=${answer}`));
  const done = search.request('invoice');
  asked[0]?.answer('3 hits');
  await done;
  expect(shown).toEqual(['invoice=3 hits']);
});

test('a cancelled request shows nothing, and the next one runs as usual', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query) => shown.push(query));
  const cleared = search.request('budget');
  search.cancel();
  asked[0]?.answer('');
  await cleared;
  expect(shown).toEqual([]);
  const next = search.request('lunch');
  asked[1]?.answer('');
  await next;
  expect(shown).toEqual(['lunch']);
});

// `replaces`: the other side stops an older request when a newer one comes (mail:search on the read thread), so a
// newer request is asked for at once rather than after an answer nobody will see.
test('replacing: a request made while one runs is asked for at once, and only the newest answer is shown', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query, answer) => shown.push(`${query}=${answer}`), { replaces: true });
  const first = search.request('a*');
  const last = search.request('invoice');
  expect(asked.map((a) => a.query)).toEqual(['a*', 'invoice']);
  let firstDone = false;
  void first.then(() => {
    firstDone = true;
  });
  asked[0]?.answer('cancelled');
  await Promise.resolve();
  await Promise.resolve();
  // The replaced request is done when the newer one is shown, not before.
  expect(firstDone).toBe(false);
  asked[1]?.answer('3 hits');
  await Promise.all([first, last]);
  expect(shown).toEqual(['invoice=3 hits']);
});

test('replacing: an older answer coming last is never shown', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query) => shown.push(query), { replaces: true });
  const done = search.request('old');
  const newer = search.request('new');
  asked[1]?.answer('');
  await newer;
  asked[0]?.answer('');
  await done;
  expect(shown).toEqual(['new']);
});

test('replacing: a cancelled request shows nothing, and the next one is shown', async () => {
  const { asked, ask } = answers();
  const shown: string[] = [];
  const search = latestOnly(ask, (query) => shown.push(query), { replaces: true });
  const cleared = search.request('budget');
  search.cancel();
  asked[0]?.answer('');
  await cleared;
  const next = search.request('lunch');
  asked[1]?.answer('');
  await next;
  expect(shown).toEqual(['lunch']);
});
