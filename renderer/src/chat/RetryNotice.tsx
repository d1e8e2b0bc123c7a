import { useEffect, useState } from 'react';

// "Rate limited — retrying in N s", counting down to the retry Skimmer announced (DESIGN §6 "Retry"). Stop
// works throughout: the wait is Skimmer's, and `run:cancel` ends it.
export function RetryNotice({ until }: { until: number }) {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);

  const left = Math.max(0, Math.ceil((until - now) / 1000));
  return (
    <p className="chat-retry" role="status" data-testid="chat-retry">
      {left > 0 ? `Rate limited — retrying in ${left} s` : 'Rate limited — retrying now…'}
      <span className="muted"> Stop (Esc) gives up.</span>
    </p>
  );
}
