import { useEffect, useState } from 'react';

// "Rate limited — retrying in N s", counting down to the retry Skimmer announced (DESIGN §6 "Retry"), named for
// why it retries. Stop works throughout: the wait is Skimmer's, and `run:cancel` ends it.
const reasons: Record<string, string> = {
  rate_limited: 'Rate limited',
  unavailable: 'The service is busy',
  transport: 'Could not reach the service',
  timeout: 'The service did not answer in time',
};

export function RetryNotice({ until, code }: { until: number; code: string }) {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);

  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <p className="chat-retry" role="status" data-testid="chat-retry">
      {`${reasons[code] ?? 'The request failed'} — ${left > 0 ? `retrying in ${left} s` : 'retrying now…'}`}
      <span className="muted"> Stop (Esc) gives up.</span>
    </p>
  );
}
