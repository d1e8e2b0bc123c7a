// How the Activity list words an audit entry (DESIGN §7: every decision goes to `audit`). Pure; tested in
// audit-text.test.ts.
import type { AuditView, GrantView } from '../../../shared/contract/index.ts';

export const decisionText: Record<AuditView['decision'], string> = {
  allowed: 'Allowed',
  approved: 'Approved',
  denied: 'Denied',
  'auto-denied': 'Refused',
  invalid: 'Not run: invalid arguments',
  cancelled: 'Cancelled',
};

// "Allowed by the tool's rule": reads run without asking; "Allowed by a permission you gave": a grant.
export const decidedByText: Record<AuditView['decidedBy'], string> = {
  gate: 'by the tool’s rule',
  grant: 'by a permission you gave',
  user: 'by you',
  engine: 'by Skimmer',
};

export const effectText: Record<AuditView['effect'], string> = {
  read: 'reads mail',
  write: 'changes mail',
  send: 'sends mail',
  delete: 'deletes mail',
};

export function grantScopeText(
  grant: Pick<GrantView, 'scope' | 'conversationTitle' | 'conversationId'>,
): string {
  if (grant.scope === 'always') return 'Always, in every conversation';
  const title =
    grant.conversationTitle ?? (grant.conversationId ? `conversation ${grant.conversationId}` : null);
  return title ? `In “${title}”` : 'In one conversation';
}

// One line for the provenance of a logged call, or null when everything in it came from the user.
export function provenanceText(provenance: AuditView['provenance']): string | null {
  const parts = [...provenance.fromUntrusted, ...provenance.notNamedByUser];
  return parts.length > 0 ? `From the email, not from you: ${parts.join(', ')}` : null;
}
