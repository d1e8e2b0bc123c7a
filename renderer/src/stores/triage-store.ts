// Triage (DESIGN §9, issue 6): the question sets, the dialog's choices (set, model, scope), the estimate shown
// before a run, the one job this page follows with its progress, Stop (a pause: what is done stays done),
// Resume and Cancel, the recent jobs, and the answers behind the thread list's chips: asked for the threads
// on screen only, and again at most once a second while a job reports progress.
import { create } from 'zustand';
import type {
  MessageAnswers,
  QuestionSetView,
  Response,
  StreamEvent,
  TriageJobView,
  TriageScope,
} from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { isModelRef } from '../chat/model-ref.ts';
import { noOrder, type TriageFilter, type TriageOrder } from '../triage/triage-order.ts';
import { atMostEvery } from './at-most-every.ts';
import { useMailStore } from './mail-store.ts';
import { defaultModel } from './model-choices-store.ts';
import { useServicesStore } from './services-store.ts';
import { loadedThreads } from './thread-pages.ts';

export type ScopeKind = TriageScope['kind'];
type Estimate = Response<'triage:estimate'>;
type TriageProgress = Extract<StreamEvent, { type: 'triage_progress' }>;
export type ThreadAnswers = MessageAnswers & { threadId: number };
type RunStatus = 'idle' | 'starting' | 'running' | 'stopping';

type TriageState = {
  open: boolean;
  sets: QuestionSetView[];
  setsError: string | null;
  // The set the dialog runs and the chips show; null until the sets are read.
  setId: number | null;
  model: string;
  scopeKind: ScopeKind;
  estimate: Estimate | null;
  estimating: boolean;
  estimateError: string | null;
  status: RunStatus;
  job: TriageJobView | null;
  progress: TriageProgress | null;
  streamId: string | null;
  runError: string | null;
  jobs: TriageJobView[];
  jobsError: string | null;
  // threadId → the answers of its newest answered message, for the set in `answersSetId`.
  answers: ReadonlyMap<number, ThreadAnswers>;
  answersSetId: number | null;
  // Sorting and filtering the folder's or view's threads by their answers (the ordered list, ordered-list-store.ts).
  order: TriageOrder;

  openDialog(): void;
  closeDialog(): void;
  loadSets(): Promise<void>;
  addStarters(): Promise<void>;
  selectSet(setId: number): void;
  // After an edit: the questions may differ, so the estimate, the answers and the order are read again.
  setChanged(setId: number | null): void;
  setModel(model: string): void;
  /** The triage default changed from `before` to `after`: a field still on the old one follows. */
  followDefault(before: string, after: string): void;
  setScopeKind(kind: ScopeKind): void;
  loadEstimate(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  resume(jobId: number): Promise<void>;
  cancel(jobId: number): Promise<void>;
  loadJobs(): Promise<void>;
  /** New mail started a job, or one ended (account:watch): the jobs and the chips are read again. */
  jobChanged(job: TriageJobView): void;
  showThreads(threadIds: readonly number[]): void;
  // Why turning the chosen set's new-mail run on or off was refused (no consent for the service, say).
  newMailError: string | null;
  /** Runs the chosen set on new mail with the model in the field, or no longer. */
  setNewMail(on: boolean): Promise<void>;
  setSort(question: string | null): void;
  setFilter(filter: TriageFilter | null): void;
};

const maxThreadIds = 500; // the contract's bound on judge:threadAnswers

// The scope the dialog offers from what the mail view shows: its folder, its search, or everything.
export function scopeOf(kind: ScopeKind): TriageScope | null {
  const mail = useMailStore.getState();
  if (kind === 'all') return { kind: 'all' };
  if (kind === 'folder') return mail.folderId === null ? null : { kind: 'folder', folderId: mail.folderId };
  const query = mail.hits !== null ? mail.query.trim() : '';
  return query === '' ? null : { kind: 'query', query: query.slice(0, 500) };
}

// Every loaded thread of the list in list order.
const loadedIds = (): number[] => loadedThreads(useMailStore.getState().pages).map((t) => t.id);

export const useTriageStore = create<TriageState>()((set, get) => {
  let unsubscribe: (() => void) | null = null;
  let estimateSerial = 0;
  let answersSerial = 0;
  let visibleIds: readonly number[] = [];
  let setsLoading: Promise<void> | null = null;

  async function loadAnswers(): Promise<void> {
    const { setId } = get();
    const ids = visibleIds.slice(0, maxThreadIds);
    if (setId === null || ids.length === 0) return;
    const serial = ++answersSerial;
    const reply = await bridge['judge:threadAnswers']({ setId, threadIds: [...ids] });
    // A failed read leaves the chips as they were; a newer read or another set wins.
    if (!reply.ok || serial !== answersSerial || get().setId !== setId) return;
    // Only threads still loaded keep their answers, so scrolling through a large mailbox holds no more
    // answers than the list holds threads.
    const loaded = new Set(loadedIds());
    set((state) => {
      const next = new Map<number, ThreadAnswers>();
      if (state.answersSetId === setId) {
        for (const [id, found] of state.answers) if (loaded.has(id)) next.set(id, found);
      }
      for (const id of ids) next.delete(id);
      for (const found of reply.value) next.set(found.threadId, found);
      return { answers: next, answersSetId: setId };
    });
  }
  const answersThrottle = atMostEvery(1000, () => void loadAnswers());

  function stopListening(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  function onEvent(event: StreamEvent): void {
    if (event.type === 'triage_progress') {
      // The running job's row in Recent jobs counts along with the bar.
      set((state) => ({
        progress: event,
        jobs: state.jobs.map((j) =>
          j.id === event.jobId ? { ...j, state: 'running', done: event.done, failed: event.failed } : j,
        ),
      }));
      answersThrottle.request();
    } else if (event.type === 'triage_done') {
      stopListening();
      set({ status: 'idle', streamId: null, job: event.job, runError: event.job.error });
      void get().loadJobs();
      void loadAnswers();
    } else if (event.type === 'error') {
      stopListening();
      set({ status: 'idle', streamId: null, runError: event.error.message });
      void get().loadJobs();
    }
  }

  function follow(job: TriageJobView, streamId: string): void {
    stopListening();
    set({ status: 'running', job, streamId, runError: null });
    // Subscribed in the same task as the reply: no stream event can arrive before this line runs.
    unsubscribe = bridge.subscribe(streamId, onEvent);
  }

  return {
    open: false,
    sets: [],
    setsError: null,
    setId: null,
    model: '',
    scopeKind: 'all',
    estimate: null,
    estimating: false,
    estimateError: null,
    status: 'idle',
    job: null,
    progress: null,
    streamId: null,
    runError: null,
    jobs: [],
    jobsError: null,
    answers: new Map(),
    answersSetId: null,
    order: noOrder,

    openDialog() {
      if (get().open) return;
      // The current folder or search is the natural scope when there is one.
      const mail = useMailStore.getState();
      const scopeKind: ScopeKind =
        mail.hits !== null && mail.query.trim() !== '' ? 'query' : mail.folderId !== null ? 'folder' : 'all';
      set({ open: true, scopeKind, estimate: null, estimateError: null });
      // The triage default (DESIGN §5, "Choosing a model") until the user names another here.
      if (get().model.trim() === '') get().setModel(defaultModel('triage'));
      void get()
        .loadSets()
        .then(() => get().loadEstimate());
      void get().loadJobs();
      // The model field suggests the saved services' names.
      void useServicesStore.getState().load();
    },

    closeDialog() {
      set({ open: false });
    },

    async loadSets() {
      const reply = await bridge['judge:sets']({});
      if (!reply.ok) {
        set({ setsError: reply.error.message });
        return;
      }
      const sets = reply.value;
      const kept = sets.some((s) => s.id === get().setId) ? get().setId : (sets[0]?.id ?? null);
      set({ sets, setsError: null, setId: kept });
    },

    async addStarters() {
      const reply = await bridge['judge:addStarters']({});
      if (!reply.ok) {
        set({ setsError: reply.error.message });
        return;
      }
      await get().loadSets();
      get().selectSet(reply.value.id);
    },

    selectSet(setId) {
      if (get().setId !== setId) get().setChanged(setId);
    },

    setChanged(setId) {
      set({ setId, answers: new Map(), answersSetId: null, order: noOrder, newMailError: null });
      void get().loadEstimate();
      void loadAnswers();
    },

    followDefault(before, after) {
      if (get().model.trim() === before) get().setModel(after);
    },

    setModel(model) {
      // The cost in the estimate depends on the service's price: ask again when the service part changes.
      const serviceOf = (m: string) => m.trim().split('/')[0];
      const before = serviceOf(get().model);
      set({ model });
      if (serviceOf(model) !== before) void get().loadEstimate();
    },

    setScopeKind(scopeKind) {
      set({ scopeKind });
      void get().loadEstimate();
    },

    async loadEstimate() {
      const { setId, scopeKind, model } = get();
      const scope = scopeOf(scopeKind);
      const serial = ++estimateSerial;
      if (setId === null || scope === null) {
        set({ estimate: null, estimating: false, estimateError: null });
        return;
      }
      set({ estimating: true, estimateError: null });
      const reply = await bridge['triage:estimate']({
        setId,
        scope,
        ...(isModelRef(model.trim()) ? { model: model.trim() } : {}),
      });
      if (serial !== estimateSerial) return;
      set({
        estimating: false,
        estimate: reply.ok ? reply.value : null,
        estimateError: reply.ok ? null : reply.error.message,
      });
    },

    async start() {
      const { setId, model, scopeKind, status } = get();
      const scope = scopeOf(scopeKind);
      if (status !== 'idle') return;
      if (setId === null || scope === null) {
        set({ runError: 'Pick a question set and a scope first.' });
        return;
      }
      if (!isModelRef(model.trim())) {
        set({ runError: 'Name the model as service/model, for example dec/gpt-6-luna.' });
        return;
      }
      set({ status: 'starting', runError: null, progress: null, job: null });
      const reply = await bridge['triage:start']({ setId, model: model.trim(), scope });
      if (!reply.ok) {
        set({ status: 'idle', runError: reply.error.message });
        return;
      }
      follow(reply.value.job, reply.value.streamId);
      void get().loadJobs();
    },

    async stop() {
      const { streamId, status } = get();
      if (status !== 'running' || streamId === null) return;
      set({ status: 'stopping' });
      const reply = await bridge['run:cancel']({ streamId });
      if (!reply.ok) set({ status: 'running', runError: reply.error.message });
    },

    async resume(jobId) {
      if (get().status !== 'idle') return;
      const job = get().jobs.find((j) => j.id === jobId) ?? get().job;
      set({ status: 'starting', runError: null, progress: null });
      const reply = await bridge['triage:resume']({ id: jobId });
      if (!reply.ok || !job) {
        set({ status: 'idle', runError: reply.ok ? null : reply.error.message });
        return;
      }
      follow({ ...job, state: 'running' }, reply.value.streamId);
    },

    async cancel(jobId) {
      const reply = await bridge['triage:cancel']({ id: jobId });
      if (!reply.ok) {
        set({ runError: reply.error.message });
        return;
      }
      if (get().job?.id === jobId) set({ job: reply.value });
      void get().loadJobs();
    },

    // A job's run ended in the app (new mail's, or one this page stopped, once the answers on their way are in):
    // the job shown and the list follow, as do the chips.
    jobChanged(job) {
      set((state) => ({
        job: state.job?.id === job.id && state.status === 'idle' ? job : state.job,
        jobs: state.jobs.map((j) => (j.id === job.id ? job : j)),
      }));
      if (get().open) void get().loadJobs();
      answersThrottle.request();
    },

    async loadJobs() {
      const reply = await bridge['triage:jobs']({});
      set(reply.ok ? { jobs: reply.value, jobsError: null } : { jobsError: reply.error.message });
    },

    showThreads(threadIds) {
      const same = threadIds.length === visibleIds.length && threadIds.every((id, i) => id === visibleIds[i]);
      if (same) return;
      visibleIds = threadIds;
      if (get().setId === null) {
        // The chips need a set: the first one until the user picks another.
        setsLoading ??= get()
          .loadSets()
          .finally(() => {
            setsLoading = null;
          });
        void setsLoading.then(() => answersThrottle.request());
        return;
      }
      answersThrottle.request();
    },

    newMailError: null,

    async setNewMail(on) {
      const { setId, model } = get();
      if (setId === null) return;
      if (on && !isModelRef(model.trim())) {
        set({ newMailError: 'Name the model as service/model, for example dec/gpt-6-luna.' });
        return;
      }
      const reply = await bridge['judge:setNewMail']({ setId, model: on ? model.trim() : null });
      if (!reply.ok) {
        set({ newMailError: reply.error.message });
        return;
      }
      const saved = reply.value;
      set((state) => ({ newMailError: null, sets: state.sets.map((s) => (s.id === saved.id ? saved : s)) }));
    },

    // The ordered list follows (reactions.ts): it is read from the main process, over the whole view.
    setSort(sortBy) {
      set((state) => ({ order: { ...state.order, sortBy } }));
    },

    setFilter(filter) {
      set((state) => ({ order: { ...state.order, filter } }));
    },
  };
});
