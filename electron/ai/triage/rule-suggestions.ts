// The batch approval card's rules (issue 6): per rule, the messages of a scope whose newest answers to the set
// meet it and that its write would change (issue 17: a preview of what it would change in existing mail, so a
// message already labelled, read, archived or in the folder is not listed), and carrying out what the user
// approved of that as undoable writes, each in the audit log.
import type { TriageScope } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { folderPlace } from '../../mail/store/folder-places.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { prepareMailActions } from '../../mail/store/undo.ts';
import { prepareMessageAnswers } from './message-answers.ts';
import { prepareRuleAudit } from './rule-audit.ts';
import { describeAction, type Rule, suggest } from './rules.ts';

export type RuleSuggestion = {
  rule: number;
  action: string;
  messages: { id: number; subject: string; from: string }[];
};
export type Approval = { rule: number; messageIds: readonly number[] };

/** `messagesIn` is the triage jobs' own reading of a scope (triage-jobs.ts), so a card and a run agree. */
export function prepareRuleSuggestions(db: Db, messagesIn: (scope: TriageScope) => number[]) {
  const answers = prepareMessageAnswers(db);
  const audit = prepareRuleAudit(db);
  const mail = prepareMessageReads(db);

  // Whether the write would change the message, as undo.ts would carry it out.
  function wouldChange(action: Rule['action'], id: number): boolean {
    if (action.kind === 'label') return !mail.hasLabel(id, action.label);
    if (action.kind === 'mark_read') return mail.unread(id) === true;
    const folder = mail.place(id);
    if (!folder) return false;
    if (action.kind === 'move') return folder.name !== action.folder;
    return folderPlace(folder) !== 'archive';
  }

  function matches(setId: number, scope: TriageScope, rules: readonly Rule[]): number[][] {
    const known = new Map(answers.forMessages(setId, messagesIn(scope)).map((a) => [a.messageId, a.answers]));
    return suggest(rules, known).map((ids, i) => {
      const rule = rules[i];
      return rule ? ids.filter((id) => wouldChange(rule.action, id)) : [];
    });
  }

  return {
    /** Per rule, the messages of the scope it would change: what the card lists and what Apply may touch. */
    matches,

    /** Per rule, what it would do to which messages of the scope. */
    suggest(setId: number, scope: TriageScope, rules: readonly Rule[]): RuleSuggestion[] {
      const matched = matches(setId, scope, rules);
      return rules.map((rule, i) => ({
        rule: i,
        action: describeAction(rule.action),
        messages: (matched[i] ?? []).map((id) => {
          const m = mail.headline(id);
          return { id, subject: m?.subject ?? '', from: m?.fromText ?? '' };
        }),
      }));
    },

    /**
     * Applies what was approved of `matched` (`matches` of the same rules, read just before: on the read thread in
     * the long-running app); how many messages changed and the undo entries the writes added.
     */
    apply(rules: readonly Rule[], approve: readonly Approval[], matched: readonly (readonly number[])[]) {
      const actions = prepareMailActions(db);
      const before = new Set(actions.undoable(50).map((u) => u.id));
      let applied = 0;
      for (const a of approve) {
        const rule = rules[a.rule];
        // SECURITY: only what the rule suggested right now is applied, whatever else the page names.
        const allowed = new Set(matched[a.rule] ?? []);
        const ids = a.messageIds.filter((id) => allowed.has(id));
        if (!rule || ids.length === 0) continue;
        const act = rule.action;
        // An unknown folder fails as the mail module's own MailError, in its sentence (bridge/errors.ts).
        if (act.kind === 'label') actions.label(ids, [act.label], []);
        else if (act.kind === 'move') actions.moveToFolder(ids, act.folder);
        else if (act.kind === 'archive') actions.moveToSpecial(ids, 'archive');
        else actions.markRead(ids, true);
        applied += ids.length;
        audit.record(rule, a.rule, ids);
      }
      return { applied, undo: actions.undoable(50).filter((u) => !before.has(u.id)) };
    },
  };
}
