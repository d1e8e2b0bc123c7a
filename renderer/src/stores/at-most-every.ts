// Runs a piece of work at most once per interval however often it is asked for: the first request runs at
// once, requests during the interval collapse into one run at its end. The background sync reports a change
// per batch of mail (several a second during a first sync); the page reads the mail again at most once a
// second. Pure apart from the timer; tested in at-most-every.test.ts.
export type Throttled = { request(): void; cancel(): void };

export function atMostEvery(intervalMs: number, run: () => void): Throttled {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let wanted = false;

  const rest = () => {
    timer = setTimeout(() => {
      timer = null;
      if (!wanted) return;
      wanted = false;
      run();
      rest();
    }, intervalMs);
  };

  return {
    request() {
      if (timer !== null) {
        wanted = true;
        return;
      }
      run();
      rest();
    },
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      wanted = false;
    },
  };
}
