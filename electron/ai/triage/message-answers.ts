// Cached judge answers looked up by message and by thread (issue 6): what the thread list's chips and the
// rule suggestions read. Any model's newest answers count; a message counts only with an answer to every
// question of the set.
import type { MessageAnswers } from '../../../shared/contract/index.ts';
import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { questionHash } from '../judge/questions.ts';
import { prepareJudgeAnswers } from './answers.ts';
import { prepareQuestionSets } from './question-sets.ts';

export function prepareMessageAnswers(db: Db) {
  const sets = prepareQuestionSets(db);
  const answers = prepareJudgeAnswers(db);
  const mail = prepareMessageReads(db);

  /** The set's newest answers for each message that has them, in the order asked. */
  function forMessages(setId: number, messageIds: Iterable<number>): MessageAnswers[] {
    const set = sets.get(setId);
    const hashes = set.questions.map(questionHash);
    const out: MessageAnswers[] = [];
    for (const messageId of messageIds) {
      const hash = mail.contentHash(messageId);
      const found = hash ? answers.newest(hash, set.questions, hashes) : null;
      if (found) out.push({ messageId, ...found });
    }
    return out;
  }

  /** Per thread, the answers of its newest message that has them. */
  function forThreads(
    setId: number,
    threadIds: readonly number[],
  ): (MessageAnswers & { threadId: number })[] {
    const set = sets.get(setId);
    const hashes = set.questions.map(questionHash);
    const out: (MessageAnswers & { threadId: number })[] = [];
    for (const threadId of threadIds) {
      for (const m of mail.threadHashes(threadId)) {
        const found = answers.newest(m.contentHash, set.questions, hashes);
        if (found) {
          out.push({ threadId, messageId: m.id, ...found });
          break;
        }
      }
    }
    return out;
  }

  return { forMessages, forThreads };
}
