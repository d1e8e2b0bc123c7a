// `skimmer judge SERVICE/MODEL --questions FILE`: typed questions about messages, answered and cached by the
// same judgeMessages the triage jobs run, over messages named the way a triage job's scope names them.
import { readFileSync } from 'node:fs';
import { type Answer, parseQuestionFile } from '../ai/judge/questions.ts';
import { connectForMail } from '../ai/model-access.ts';
import { judgeMessages } from '../ai/triage/judge-messages.ts';
import type { App } from '../app.ts';
import type { Command } from './command.ts';
import { failureOf, printFailure, UsageError } from './failures.ts';
import { usageSentence, type Values } from './flags.ts';
import { modelOf } from './model-arg.ts';

// The messages a judge command names: one or more ids, the best matches of a search, or all, newest first.
function messageIds(app: App, values: Values): number[] {
  if (values.message !== undefined) {
    return values.message.map((m) => {
      const id = Number(m);
      if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--message takes a message id, not "${m}".`);
      return id;
    });
  }
  if (values.query !== undefined) return app.triageJobs.messagesIn({ kind: 'query', query: values.query });
  return app.triageJobs.messagesIn({ kind: 'all' });
}

function answerText(a: Answer): string {
  switch (a.type) {
    case 'predicate':
      return `${a.name} ${a.probability.toFixed(2)}`;
    case 'choice':
      return `${a.name} ${String(a.choice)}`;
    case 'score':
      return `${a.name} ${a.score.toFixed(1)}`;
    case 'refusal':
      return `${a.name} refused`;
  }
}

export const judgeCommand: Command = async (app, args, values, io, signal) => {
  const [word, ...extra] = args;
  if (extra.length > 0 || !values.questions) {
    throw new UsageError(usageSentence('judge'));
  }
  const model = modelOf(app, 'triage', { word, flag: values.model });
  const scopes = [values.message !== undefined, values.query !== undefined, values.all].filter(
    Boolean,
  ).length;
  if (scopes !== 1)
    throw new UsageError('Name the messages with exactly one of --message ID, --query Q or --all.');
  let file: unknown;
  try {
    file = JSON.parse(readFileSync(values.questions, 'utf8'));
  } catch (e) {
    throw new UsageError(
      `The questions file could not be read as JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const print = (o: object) => io.out(JSON.stringify(o));
  const parsedFile = parseQuestionFile(file);
  if (!parsedFile.ok) {
    printFailure(io, values, { code: 'invalid_request', message: parsedFile.reason });
    return 2;
  }
  const ids = messageIds(app, values);
  let failed = false;
  try {
    // SECURITY: the consent check comes first; the key is read only for a service allowed to read mail.
    const access = await connectForMail(app.services, model);
    const result = await judgeMessages(
      app,
      { model, access, questions: parsedFile.questions, messageIds: ids },
      {
        ...(signal ? { signal } : {}),
        onResult: (r) => {
          if (!r.ok) {
            failed = true;
            if (values.json)
              print({ type: 'error', code: r.code, message: r.message, messageId: r.messageId });
            else io.err(`#${r.messageId}: ${r.message}`);
          } else if (values.json) print({ messageId: r.messageId, answers: r.answers });
          else
            io.out(
              `#${r.messageId}  ${r.answers.map(answerText).join(' · ')}${r.certainty === 'binary' ? '  (yes/no only)' : ''}`,
            );
        },
      },
    );
    if (!values.json) {
      io.out(`${result.answered} asked, ${result.cached} from the cache, ${result.failed} failed.`);
      if (result.stopped) io.err(`Stopped: ${result.stopped.message}`);
    }
    return failed || result.stopped ? 1 : 0;
  } catch (e) {
    const failure = failureOf(e);
    if (!failure) throw e;
    printFailure(io, values, failure);
    return failure.code === 'invalid_request' ? 2 : 1;
  }
};
