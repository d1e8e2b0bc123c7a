// A wait for a condition outside a test (a beforeAll, where vitest's expect.poll may not run): checked every
// `interval` ms until it holds, failing with `what` once `timeout` ms have passed without it.
export async function waitUntil(
  holds: () => boolean,
  poll: { timeout: number; interval: number },
  what: string,
): Promise<void> {
  const until = Date.now() + poll.timeout;
  while (!holds()) {
    if (Date.now() > until) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, poll.interval));
  }
}
