// Judge answers, cached (issue 6): one row per (message content hash, question hash, model), so the same
// question about the same mail is never asked twice, whichever job or command asks. Owns `judge_answers`.
import type { Db } from '../../db/open.ts';
import { type Answer, type Question, questionHash } from '../judge/questions.ts';

export type Certainty = 'probabilities' | 'binary';
export type Judged = { answers: Answer[]; certainty: Certainty; model: string };

export function prepareJudgeAnswers(db: Db, now: () => number = Date.now) {
  const get = db.prepare<[string, string, string], { answer_json: string; certainty: Certainty }>(
    'SELECT answer_json, certainty FROM judge_answers WHERE content_hash = ? AND question_hash = ? AND model = ?',
  );
  const put = db.prepare<[string, string, string, string, string, Certainty, string | null, number]>(
    `INSERT OR REPLACE INTO judge_answers
       (content_hash, question_hash, model, name, answer_json, certainty, request_id, at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  const newest = db.prepare<[string, string], { answer_json: string; certainty: Certainty; model: string }>(
    `SELECT answer_json, certainty, model FROM judge_answers WHERE content_hash = ? AND question_hash = ?
     ORDER BY at DESC LIMIT 1`,
  );

  return {
    /** The newest answers to every question from any model, or null when a question has none. */
    newest(
      contentHash: string,
      questions: readonly Question[],
      // The questions' hashes when the caller asks about many messages: hashing is most of a lookup's cost.
      hashes: readonly string[] = questions.map(questionHash),
    ): Judged | null {
      const answers: Answer[] = [];
      let certainty: Certainty = 'probabilities';
      let model = '';
      for (const hash of hashes) {
        const row = newest.get(contentHash, hash);
        if (!row) return null;
        answers.push(JSON.parse(row.answer_json) as Answer);
        if (row.certainty === 'binary') certainty = 'binary';
        model ||= row.model;
      }
      return { answers, certainty, model };
    },

    /** The answers to every question, in question order, or null when any is not cached yet. */
    cached(contentHash: string, questions: readonly Question[], model: string): Judged | null {
      const answers: Answer[] = [];
      let certainty: Certainty = 'probabilities';
      for (const q of questions) {
        const row = get.get(contentHash, questionHash(q), model);
        if (!row) return null;
        answers.push(JSON.parse(row.answer_json) as Answer);
        if (row.certainty === 'binary') certainty = 'binary';
      }
      return { answers, certainty, model };
    },

    store: db.transaction(
      (
        contentHash: string,
        model: string,
        questions: readonly Question[],
        answers: readonly Answer[],
        certainty: Certainty,
        requestId: string | null,
      ) => {
        for (const q of questions) {
          const answer = answers.find((a) => a.name === q.name);
          if (!answer) continue;
          put.run(
            contentHash,
            questionHash(q),
            model,
            q.name,
            JSON.stringify(answer),
            certainty,
            requestId,
            now(),
          );
        }
      },
    ),
  };
}
