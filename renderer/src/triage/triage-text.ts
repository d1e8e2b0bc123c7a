// The sentences of the Triage dialog: the estimate before a run ("1,240 messages, about 310,000 input tokens,
// about 6 minutes"), the progress while it runs, and a job's state in the list. Pure; tested in
// triage-text.test.ts.
import type { TriageJobScope, TriageJobView } from '../../../shared/contract/index.ts';

const count = (n: number, one: string, many: string): string =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function durationText(seconds: number): string {
  if (seconds < 60) return count(Math.max(1, Math.round(seconds)), 'second', 'seconds');
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return count(minutes, 'minute', 'minutes');
  return count(Math.round(minutes / 6) / 10, 'hour', 'hours');
}

export function estimateText(e: {
  messages: number;
  inputTokens: number;
  seconds: number;
  cost?: number | null;
}): string {
  if (e.messages === 0) return 'There are no messages in this scope.';
  const cost =
    e.cost === undefined || e.cost === null ? '' : `, about ${costText(e.cost)} at the price you entered`;
  return `${count(e.messages, 'message', 'messages')}, about ${count(e.inputTokens, 'input token', 'input tokens')}, about ${durationText(e.seconds)}${cost}`;
}

/** US dollars: cents below $100, whole dollars above; "less than $0.01" rather than "$0.00". */
export function costText(dollars: number): string {
  if (dollars > 0 && dollars < 0.01) return 'less than $0.01';
  return dollars >= 100 ? `$${Math.round(dollars).toLocaleString('en-US')}` : `$${dollars.toFixed(2)}`;
}

export function progressText(p: {
  done: number;
  failed: number;
  total: number;
  perSecond: number;
  etaSeconds: number | null;
}): string {
  const parts = [`${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')} done`];
  if (p.failed > 0) parts.push(`${p.failed.toLocaleString('en-US')} failed`);
  if (p.perSecond > 0) parts.push(`${(Math.round(p.perSecond * 10) / 10).toString()} a second`);
  if (p.etaSeconds !== null && p.done + p.failed < p.total)
    parts.push(`about ${durationText(p.etaSeconds)} left`);
  return parts.join(' · ');
}

export function scopeText(scope: TriageJobScope, folderName: (id: number) => string): string {
  if (scope.kind === 'all') return 'all mail';
  if (scope.kind === 'new_mail')
    return scope.messages === 1 ? '1 new message' : `${scope.messages.toLocaleString('en-US')} new messages`;
  if (scope.kind === 'folder') return `folder ${folderName(scope.folderId)}`;
  return `search “${scope.query}”`;
}

const stateWords: Record<TriageJobView['state'], string> = {
  running: 'running',
  paused: 'paused',
  done: 'done',
  cancelled: 'cancelled',
  failed: 'failed',
};

export function jobText(job: TriageJobView): string {
  const failed = job.failed > 0 ? `, ${job.failed.toLocaleString('en-US')} failed` : '';
  return `${stateWords[job.state]} · ${job.done.toLocaleString('en-US')} of ${job.total.toLocaleString('en-US')}${failed}`;
}

/**
 * What running a set on new mail costs, from the estimate of the scope in the dialog: per 100 messages, as the
 * mail that arrives is like the mail that is there. Null when the scope holds no mail to judge by.
 */
export function newMailEstimateText(e: {
  messages: number;
  inputTokens: number;
  cost?: number | null;
}): string | null {
  if (e.messages === 0) return null;
  const per100 = (n: number) => (n * 100) / e.messages;
  const tokens = Math.round(per100(e.inputTokens));
  const cost =
    e.cost === undefined || e.cost === null
      ? ''
      : `, about ${costText(per100(e.cost))} at the price you entered`;
  return `About ${count(tokens, 'input token', 'input tokens')} per 100 new messages${cost}.`;
}
