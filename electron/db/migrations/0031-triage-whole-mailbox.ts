import type { Migration } from '../migrate.ts';

// Triage over the whole mailbox (issue 17, DESIGN §9). The list ordered by an answer finds, per question, the
// messages with an answer and their threads in SQL: answers by question (judge_answers is keyed by content
// first) and messages by content (the only index with content_hash puts the Message-ID first), covering the
// thread and date the ordering reads. A question set may run on new mail as it arrives: the model named when
// it was turned on, the newest message id already seen (ids only grow, migration 0022, so "new" is every id
// above it), and why the last new mail was not triaged, if it was not.
export const m0031: Migration = {
  version: 31,
  name: 'triage-whole-mailbox',
  up(db) {
    db.exec(`
      CREATE INDEX judge_answers_by_question ON judge_answers (question_hash, content_hash);
      CREATE INDEX messages_by_content ON messages (content_hash, thread_id, date);
      ALTER TABLE judge_question_sets ADD COLUMN new_mail_model TEXT;
      ALTER TABLE judge_question_sets ADD COLUMN new_mail_after INTEGER;
      ALTER TABLE judge_question_sets ADD COLUMN new_mail_error TEXT;
    `);
  },
};
