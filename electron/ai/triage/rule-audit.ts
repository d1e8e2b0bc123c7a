// A triage rule's writes in the audit log (issue 6): the user approved them on the batch card, so each is an
// approved write by the user. They hold no key to mask.
import type { Db } from '../../db/open.ts';
import { prepareAudit } from '../safety/audit.ts';
import { describeAction, type Rule } from './rules.ts';

export function prepareRuleAudit(db: Db, now: () => number = Date.now) {
  const audit = prepareAudit(db, () => [], now);
  return {
    /** Records that rule number `ruleIndex` of the card was applied to these messages. */
    record(rule: Rule, ruleIndex: number, messageIds: readonly number[]): void {
      audit.record({
        conversationId: null,
        callId: `rule-${now()}-${ruleIndex}`,
        tool: 'triage_rule',
        effect: 'write',
        args: { rule, messageIds },
        provenance: { fromUntrusted: [], notNamedByUser: [] },
        decision: 'approved',
        decidedBy: 'user',
        resultSummary: `${describeAction(rule.action)}: ${messageIds.length} message${messageIds.length === 1 ? '' : 's'} (undoable).`,
        isError: false,
      });
    },
  };
}
