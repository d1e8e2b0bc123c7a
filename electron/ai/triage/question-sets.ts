// Question sets (issue 6): the questions a user asks of every message, written by the user (never taken
// from mail), stored by name. A new database offers good starters. Owns `judge_question_sets`.
import type { Db } from '../../db/open.ts';
import { AssistantError } from '../assistant-error.ts';
import { type Question, validateQuestions } from '../judge/questions.ts';

export type QuestionSet = {
  id: number;
  name: string;
  questions: Question[];
  updatedAt: number;
  /** Runs on new mail as it arrives with this model (issue 17); null: only when the user starts a job. */
  newMail: { model: string; error: string | null } | null;
};

/** The starters the issue names: needs a reply, category, urgency 0–4, newsletter, phishing. */
export const starterQuestions: Question[] = [
  {
    type: 'predicate',
    name: 'needs_reply',
    instructions:
      'The sender expects a reply from the recipient (a question, a request or a decision to make).',
  },
  {
    type: 'choice',
    name: 'category',
    instructions: 'What kind of mail is this?',
    choices: [
      { value: 'personal', description: 'From a person the recipient knows, about their own life.' },
      { value: 'work', description: 'About the recipient’s work: colleagues, clients, projects.' },
      { value: 'transaction', description: 'Receipts, invoices, orders, bookings, account notices.' },
      { value: 'newsletter', description: 'Newsletters, digests, announcements sent to a list.' },
      { value: 'promotion', description: 'Marketing and offers.' },
      { value: 'other' },
    ],
  },
  {
    type: 'score',
    name: 'urgency',
    instructions: 'How soon does the recipient need to act on this message?',
    levels: [
      { label: 'No action', description: 'Nothing to do.' },
      { label: 'Some time', description: 'Within weeks.' },
      { label: 'This week' },
      { label: 'Today' },
      { label: 'Now', description: 'Within the hour; real consequences if missed.' },
    ],
  },
  {
    type: 'predicate',
    name: 'is_newsletter',
    instructions:
      'The message was sent to a mailing list or many recipients (a newsletter, digest or bulk mail).',
  },
  {
    type: 'predicate',
    name: 'is_phishing',
    instructions:
      'The message tries to trick the recipient into giving credentials, money or access, or into opening a ' +
      'dangerous link or attachment, for example by posing as a bank, a colleague or a service.',
  },
];

type Row = {
  id: number;
  name: string;
  questions_json: string;
  updated_at: number;
  new_mail_model: string | null;
  new_mail_error: string | null;
};
const toSet = (r: Row): QuestionSet => ({
  id: r.id,
  name: r.name,
  questions: JSON.parse(r.questions_json) as Question[],
  updatedAt: r.updated_at,
  newMail: r.new_mail_model === null ? null : { model: r.new_mail_model, error: r.new_mail_error },
});
const columns = 'id, name, questions_json, updated_at, new_mail_model, new_mail_error';

export function prepareQuestionSets(db: Db, now: () => number = Date.now) {
  const all = db.prepare<[], Row>(`SELECT ${columns} FROM judge_question_sets ORDER BY name`);
  const byId = db.prepare<[number], Row>(`SELECT ${columns} FROM judge_question_sets WHERE id = ?`);
  const setNewMail = db.prepare<[string | null, number | null, number]>(
    'UPDATE judge_question_sets SET new_mail_model = ?, new_mail_after = ?, new_mail_error = NULL WHERE id = ?',
  );
  const onNewMail = db.prepare<[], { id: number; model: string; after: number }>(
    `SELECT id, new_mail_model AS model, new_mail_after AS after FROM judge_question_sets
      WHERE new_mail_model IS NOT NULL ORDER BY id`,
  );
  const seen = db.prepare<[number, string | null, number]>(
    'UPDATE judge_question_sets SET new_mail_after = ?, new_mail_error = ? WHERE id = ?',
  );
  const count = db.prepare('SELECT count(*) FROM judge_question_sets').pluck();
  const insert = db.prepare<[string, string, number, number]>(
    'INSERT INTO judge_question_sets (name, questions_json, created_at, updated_at) VALUES (?, ?, ?, ?)',
  );
  const update = db.prepare<[string, string, number, number]>(
    'UPDATE judge_question_sets SET name = ?, questions_json = ?, updated_at = ? WHERE id = ?',
  );
  const del = db.prepare<[number]>('DELETE FROM judge_question_sets WHERE id = ?');
  const nameTaken = db
    .prepare<[string, number]>('SELECT 1 FROM judge_question_sets WHERE name = ? AND id <> ?')
    .pluck();

  const checked = (name: string, questions: Question[]) => {
    const clean = name.trim();
    if (clean === '' || clean.length > 80)
      throw new AssistantError('invalid', 'Name the set in 1–80 characters.');
    const v = validateQuestions(questions);
    if (!v.ok) throw new AssistantError('invalid', v.reason);
    return clean;
  };

  return {
    /** Every set; a database without any gets the starters first. */
    list(): QuestionSet[] {
      if ((count.get() as number) === 0) insert.run('Triage', JSON.stringify(starterQuestions), now(), now());
      return all.all().map(toSet);
    },
    get(id: number): QuestionSet {
      const r = byId.get(id);
      if (!r) throw new AssistantError('not_found', 'That question set does not exist.');
      return toSet(r);
    },
    save(s: { id?: number; name: string; questions: Question[] }): QuestionSet {
      const name = checked(s.name, s.questions);
      if (nameTaken.get(name, s.id ?? -1) !== undefined) {
        throw new AssistantError('invalid', `There is already a question set named "${name}".`);
      }
      if (s.id === undefined) {
        const id = Number(insert.run(name, JSON.stringify(s.questions), now(), now()).lastInsertRowid);
        return toSet(byId.get(id) as Row);
      }
      if (update.run(name, JSON.stringify(s.questions), now(), s.id).changes === 0) {
        throw new AssistantError('not_found', 'That question set does not exist.');
      }
      return toSet(byId.get(s.id) as Row);
    },
    remove: (id: number): boolean => del.run(id).changes > 0,
    /** Runs the set on mail stored after message `after` (a model), or no longer (null). */
    setNewMail(id: number, model: string | null, after: number): QuestionSet {
      if (setNewMail.run(model, model === null ? null : after, id).changes === 0) {
        throw new AssistantError('not_found', 'That question set does not exist.');
      }
      return toSet(byId.get(id) as Row);
    },
    /** The sets that run on new mail, each with the newest message id it has seen. */
    onNewMail: () => onNewMail.all(),
    /** The new mail up to `after` has been seen: triaged, or not for the reason given. */
    newMailSeen(id: number, after: number, error: string | null): void {
      seen.run(after, error, id);
    },
    /** The starters as a new set: "Triage", or "Triage 2", "Triage 3"… when the name is taken. */
    addStarters(): QuestionSet {
      let name = 'Triage';
      for (let n = 2; nameTaken.get(name, -1) !== undefined; n++) name = `Triage ${n}`;
      const id = Number(insert.run(name, JSON.stringify(starterQuestions), now(), now()).lastInsertRowid);
      return toSet(byId.get(id) as Row);
    },
  };
}
