// A question set that runs on new mail as it arrives (issue 17, DESIGN §9): opt-in per set, with the model
// named when it is turned on. When an import or a sync has stored mail, each such set gets one job over exactly
// the messages stored since it last looked (message ids only grow, migration 0022), run as any job is: cached
// answers, the same audit, the same consent. Only the long-running app does this; the CLI does not.
import type { Db } from '../../db/open.ts';
import { prepareMessageReads } from '../../mail/store/message-reads.ts';
import { AssistantError } from '../assistant-error.ts';
import { splitModelRef } from '../model-access.ts';
import type { prepareServices } from '../services.ts';
import { prepareQuestionSets, type QuestionSet } from './question-sets.ts';
import type { prepareTriageJobs, TriageJob } from './triage-jobs.ts';

type Deps = { db: Db; services: ReturnType<typeof prepareServices> };
type Jobs = Pick<ReturnType<typeof prepareTriageJobs>, 'createForNewMail' | 'run' | 'pause'>;

/**
 * More new messages than this at once is rather an import or a first sync than mail arriving: its job waits,
 * paused, for Resume in the Triage dialog, where the job shows how many messages it holds, so a big bill never
 * starts unseen (the cost shown when it was turned on was per 100 messages).
 */
const newMailAtOnce = 200;

export function prepareNewMailTriage(
  deps: Deps,
  jobs: Jobs,
  onError: (e: unknown) => void = () => {},
  atOnce = newMailAtOnce,
) {
  const sets = prepareQuestionSets(deps.db);
  const mail = prepareMessageReads(deps.db);
  const watchers = new Set<(job: TriageJob) => void>();
  const tell = (job: TriageJob) => {
    for (const w of watchers) w(job);
  };

  // SECURITY: the consent rule of a job (DESIGN §5): a service off this computer that the user has not allowed
  // to read mail (or has edited since) is refused with its sentence before any mail goes to it.
  function requireConsent(model: string): void {
    deps.services.requireMailConsent(deps.services.idByName(splitModelRef(model).service));
  }

  return {
    /** Every job new mail starts, as it starts, until the returned function is called. */
    watch(onJob: (job: TriageJob) => void): () => void {
      watchers.add(onJob);
      return () => watchers.delete(onJob);
    },

    /** Turns it on (the model) from the mail stored after now, or off (null). */
    set(setId: number, model: string | null): QuestionSet {
      sets.get(setId);
      if (model !== null) requireConsent(model);
      return sets.setNewMail(setId, model, mail.newestId());
    },

    /**
     * After an import or a sync stored mail: starts a job over the new messages for every set that runs on new
     * mail (paused when more than `atOnce` came together), and returns the jobs. A set whose service may no
     * longer read mail starts none; the set says why, and that mail is not asked about later (a job over its
     * folder can be started by hand).
     */
    arrived(): TriageJob[] {
      const started: TriageJob[] = [];
      for (const s of sets.onNewMail()) {
        const ids = mail.idsAfter(s.after);
        if (ids.length === 0) continue;
        // Not Math.max(...ids): a first sync's tens of thousands of ids would be as many arguments.
        const after = ids.reduce((a, b) => Math.max(a, b), s.after);
        try {
          requireConsent(s.model);
        } catch (e) {
          // Skimmer's own sentence only: nothing else that was thrown is kept with the set or shown.
          const why = e instanceof AssistantError ? e.message : 'The model service cannot be used.';
          const n =
            ids.length === 1
              ? '1 new message was'
              : `${ids.length.toLocaleString('en-US')} new messages were`;
          sets.newMailSeen(s.id, after, `${n} not triaged: ${why}`);
          continue;
        }
        const job = jobs.createForNewMail(s.id, s.model, ids);
        if (ids.length > atOnce) {
          jobs.pause(job.id);
          const n = ids.length.toLocaleString('en-US');
          sets.newMailSeen(s.id, after, `${n} new messages came at once: their job waits for Resume.`);
          started.push({ ...job, state: 'paused' });
          tell({ ...job, state: 'paused' });
          continue;
        }
        sets.newMailSeen(s.id, after, null);
        started.push(job);
        tell(job);
        // Its end is told by the jobs' own watch (triage-jobs.ts), as every run's is.
        jobs.run(job.id).catch(onError);
      }
      return started;
    },
  };
}
