// Every message of a corpus database answered by the five starter questions, as a finished triage job leaves it
// (figures from a seeded generator, one in fifty refused), so the list ordered by an answer has something to
// order: bench/triage-order.ts and bench/main-stall.ts.
import { prepareJudgeAnswers } from '../electron/ai/triage/answers.ts';
import { prepareQuestionSets, starterQuestions } from '../electron/ai/triage/question-sets.ts';
import type { Db } from '../electron/db/open.ts';
import type { Answer } from '../shared/judge.ts';
import { seededRandom } from './mailbox/random.ts';

/** Saves the starter set and answers every message with it; returns the set's id and how many were answered. */
export function answerEveryMessage(db: Db, setName = 'Bench'): { setId: number; answered: number } {
  const setId = prepareQuestionSets(db).save({ name: setName, questions: starterQuestions }).id;
  const cache = prepareJudgeAnswers(db);
  const random = seededRandom(17).next;
  const categories = ['personal', 'work', 'transaction', 'newsletter', 'promotion', 'other'];
  const hashes = db.prepare('SELECT content_hash FROM messages').pluck().all() as string[];
  db.transaction(() => {
    for (const hash of hashes) {
      const answers: Answer[] = starterQuestions.map((q): Answer => {
        if (random() < 0.02) return { type: 'refusal', name: q.name };
        if (q.type === 'predicate') return { type: 'predicate', name: q.name, probability: random() };
        if (q.type === 'choice')
          return { type: 'choice', name: q.name, choice: categories[Math.floor(random() * 6)] as string };
        return { type: 'score', name: q.name, score: Math.round(random() * 400) / 100 };
      });
      cache.store(hash, 'bench/model', starterQuestions, answers, 'probabilities', null);
    }
  })();
  return { setId, answered: hashes.length };
}
