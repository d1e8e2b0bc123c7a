// The composer (issue 16, "Write mail"; DESIGN §12, "The composer"): one panel for a new mail, a reply, a reply
// all and a forward. The draft exists in Skimmer from the moment the panel opens (draft:new; a reply or forward
// is made by the main process from the stored message, shared/compose), and on the server's Drafts from its
// first save (`unwritten`: an opening alone must not move the conversation answered, issue 29 §7), so what is
// written is never only here: edits are saved about a second after typing stops and on close, one save at a
// time. Until a save has landed the form is also kept in the tab's sessionStorage, so a reload mid-typing
// reopens the draft with every character. Send saves first, then `draft:send` queues it in the outbox, whose bar offers Undo. Closing a
// draft this panel made, with nothing written in it, discards it, as Gmail does.
import { create } from 'zustand';
import type {
  Address,
  DraftAttachment,
  DraftDetail,
  Envelope,
  Response,
} from '../../../shared/contract/index.ts';
import { maxAttachmentBytes } from '../../../shared/contract/limits.ts';
import { addressKey } from '../../../shared/mail-address.ts';
import { bridge } from '../bridge.ts';
import { addEntries } from '../compose/address-entry.ts';
import { stillFits } from '../compose/completion-match.ts';
import {
  type AddressField,
  type ComposeForm,
  formOf,
  hasWriting,
  sameForm,
  saveRequest,
  sendProblem,
} from '../compose/compose-form.ts';
import { fileChunks } from '../compose/file-chunks.ts';
import { swapSignature } from '../compose/signature-swap.ts';
import { formatBytes } from '../format/format-size.ts';
import { announce } from './store-events.ts';

export type ComposeKind = 'new' | 'reply' | 'all' | 'forward';
type Identity = Response<'identity:list'>[number];
// A file on its way to the draft, or one that did not make it (with Skimmer's sentence).
type Upload = { key: number; name: string; size: number; sent: number; error: string | null };
type Completion = { field: AddressField; items: Address[]; at: number };
// 'pending': edited, the save waits for typing to stop.
type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

type ComposeState = {
  open: boolean;
  opening: boolean;
  draftId: number | null;
  kind: ComposeKind;
  // The message the open draft answers (a reply's), which "Draft with AI" drafts a reply to; else null.
  inReplyTo: number | null;
  // The sending account's address, which a draft without a chosen From goes out from.
  accountFrom: string | null;
  form: ComposeForm | null;
  showCc: boolean;
  showBcc: boolean;
  attachments: DraftAttachment[];
  uploads: Upload[];
  identities: Identity[];
  saveState: SaveState;
  saveError: string | null;
  // Skimmer's sentence about opening, sending or discarding.
  error: string | null;
  busy: 'sending' | 'discarding' | 'closing' | null;
  confirmDiscard: boolean;
  completion: Completion | null;
  // Bumped each time a draft opens in the panel: it then puts the cursor where writing starts.
  focusTick: number;

  compose(): Promise<void>;
  answer(kind: Exclude<ComposeKind, 'new'>, messageId: number): Promise<void>;
  // Opens a stored draft (the drafts list, the outbox bar's "Open draft", a reload) where it was left.
  openDraft(id: number): Promise<void>;
  // After a reload: the draft that was open in this tab, with what was typed into it.
  restore(): Promise<void>;
  // Opens a reply the model drafted (draft:aiReply), in place of what is open; false when that could not close.
  showDrafted(draft: DraftDetail, kind: 'reply' | 'all'): Promise<boolean>;
  edit(patch: Partial<Pick<ComposeForm, 'subject' | 'body'>>): void;
  setFrom(address: string | null): void;
  addAddresses(field: AddressField, entries: readonly string[]): void;
  removeAddress(field: AddressField, index: number): void;
  showField(field: 'cc' | 'bcc'): void;
  complete(field: AddressField, prefix: string): Promise<void>;
  moveCompletion(delta: number): void;
  // Adds the highlighted suggestion to its field; false when none is shown.
  acceptCompletion(): boolean;
  endCompletion(): void;
  attach(files: readonly File[]): Promise<void>;
  detach(attachmentId: number): Promise<void>;
  dismissUpload(key: number): void;
  save(): Promise<boolean>;
  // Save and close (the Save button, Esc); the draft stays in Drafts.
  close(): Promise<void>;
  send(): Promise<void>;
  askDiscard(): void;
  cancelDiscard(): void;
  discard(): Promise<void>;
};

const autosaveMs = 1000;
const stashKey = 'skimmer.composing';
const completionLimit = 8;

type Stash = { draftId: number; form: ComposeForm | null };

function readStash(): Stash | null {
  try {
    const raw = sessionStorage.getItem(stashKey);
    return raw ? (JSON.parse(raw) as Stash) : null;
  } catch {
    return null;
  }
}

function writeStash(stash: Stash | null): void {
  try {
    if (stash) sessionStorage.setItem(stashKey, JSON.stringify(stash));
    else sessionStorage.removeItem(stashKey);
  } catch {
    // Storage can be unavailable (privacy settings); the autosave still keeps all but the last second.
  }
}

// What the panel shows while nothing is open.
const closed = {
  open: false,
  opening: false,
  draftId: null,
  inReplyTo: null,
  form: null,
  accountFrom: null,
  attachments: [],
  uploads: [],
  saveState: 'idle',
  saveError: null,
  busy: null,
  confirmDiscard: false,
  completion: null,
  showCc: false,
  showBcc: false,
} satisfies Partial<ComposeState>;

export const useComposeStore = create<ComposeState>()((set, get) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let saves: Promise<boolean> = Promise.resolve(true);
  // What Skimmer holds of the open draft, and the form it opened with.
  let stored: ComposeForm | null = null;
  let initial: ComposeForm | null = null;
  // The panel made this draft (and may discard it unwritten on close); false for one opened from Drafts.
  let fresh = false;
  let attachedFiles = false;
  let completionSerial = 0;
  let uploadSerial = 0;

  function stopTimer(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  async function saveNow(): Promise<boolean> {
    const { draftId, form } = get();
    if (draftId === null || form === null) return true;
    if (stored !== null && sameForm(form, stored)) return true;
    set({ saveState: 'saving' });
    const reply = await bridge['draft:save'](saveRequest(draftId, form));
    if (get().draftId !== draftId) return reply.ok;
    if (!reply.ok) {
      set({ saveState: 'failed', saveError: reply.error.message });
      return false;
    }
    stored = form;
    // Typing may have gone on meanwhile: then its own save is due.
    const current = get().form;
    set({ saveState: current && sameForm(current, form) ? 'saved' : 'pending', saveError: null });
    return true;
  }

  // One save at a time, in order: a save asked for during another runs after it, with the form as it is then.
  function flush(): Promise<boolean> {
    stopTimer();
    saves = saves.then(saveNow, saveNow);
    return saves;
  }

  function identityOf(address: string | null): Identity | undefined {
    if (address === null) return undefined;
    return get().identities.find((i) => addressKey(i.address) === addressKey(address));
  }

  async function loadIdentities(): Promise<Identity[]> {
    const reply = await bridge['identity:list']({});
    if (reply.ok) set({ identities: reply.value });
    return get().identities;
  }

  function shut(): void {
    stopTimer();
    stored = null;
    initial = null;
    fresh = false;
    attachedFiles = false;
    writeStash(null);
    set({ ...closed });
  }

  // Saves and closes what is open, if anything: false when that save failed (the panel stays, with its sentence).
  async function leave(): Promise<boolean> {
    if (!get().open) return true;
    await get().close();
    return !get().open;
  }

  function show(detail: DraftDetail, kind: ComposeKind, made: boolean): void {
    const form = formOf(detail);
    stored = form;
    initial = form;
    fresh = made;
    attachedFiles = false;
    writeStash({ draftId: detail.id, form: null });
    set((state) => ({
      ...closed,
      open: true,
      draftId: detail.id,
      inReplyTo: detail.inReplyTo,
      kind,
      accountFrom: detail.from,
      form,
      attachments: detail.attachments,
      showCc: detail.cc.length > 0,
      showBcc: detail.bcc.length > 0,
      error: null,
      focusTick: state.focusTick + 1,
    }));
    if (made) void announce({ type: 'drafts_changed' });
  }

  function opened(
    reply: Envelope<DraftDetail>,
    kind: (detail: DraftDetail) => ComposeKind,
    made: boolean,
  ): void {
    if (!reply.ok) set({ opening: false, error: reply.error.message });
    else show(reply.value, kind(reply.value), made);
  }

  function editForm(next: ComposeForm): void {
    const { draftId, saveState } = get();
    set({
      form: next,
      saveState: saveState === 'saving' ? 'saving' : 'pending',
      confirmDiscard: false,
      error: null,
    });
    if (draftId !== null) writeStash({ draftId, form: next });
    stopTimer();
    timer = setTimeout(() => void flush(), autosaveMs);
  }

  return {
    ...closed,
    kind: 'new',
    identities: [],
    error: null,
    focusTick: 0,

    async compose() {
      if (!(await leave())) return;
      set({ opening: true, error: null, kind: 'new' });
      const identities = await loadIdentities();
      // An account's own address first: it is what a new mail is sent from unless the user picks another.
      const from = identities.find((i) => i.account !== null) ?? identities[0] ?? null;
      const reply = await bridge['draft:new']({
        kind: 'blank',
        fromAddress: from?.address ?? null,
        to: [],
        cc: [],
        bcc: [],
        subject: '',
        body: swapSignature('', null, from?.signature ?? null),
        unwritten: true,
      });
      opened(reply, () => 'new', true);
    },

    async answer(kind, messageId) {
      if (!(await leave())) return;
      set({ opening: true, error: null, kind });
      // The main process chooses the From; the list is for the select and the signature swap.
      const [reply] = await Promise.all([
        bridge['draft:new']({ kind, message: messageId, to: [], body: '', unwritten: true }),
        loadIdentities(),
      ]);
      opened(reply, () => kind, true);
    },

    async openDraft(id) {
      if (get().draftId === id && get().open) return;
      if (!(await leave())) return;
      set({ opening: true, error: null });
      const [reply] = await Promise.all([bridge['draft:show']({ id }), loadIdentities()]);
      opened(
        reply,
        (draft) => (draft.forwardOf !== null ? 'forward' : draft.inReplyTo !== null ? 'reply' : 'new'),
        false,
      );
    },

    async restore() {
      const stash = readStash();
      if (!stash || get().open) return;
      await get().openDraft(stash.draftId);
      const form = get().form;
      if (get().draftId !== stash.draftId || !form) {
        // Sent or discarded meanwhile (another page, the CLI): nothing to go back to.
        writeStash(null);
        if (!get().open) set({ error: null });
        return;
      }
      // What was typed after the last save that landed.
      if (stash.form && !sameForm(stash.form, form)) editForm(stash.form);
    },

    async showDrafted(draft, kind) {
      if (!(await leave())) return false;
      show(draft, kind, false);
      // The model's draft is only on this computer (issue 17): the user's first Save, even of it unchanged, is
      // what puts it in the server's Drafts, so nothing counts as saved yet.
      stored = null;
      return true;
    },

    edit(patch) {
      const form = get().form;
      if (form) editForm({ ...form, ...patch });
    },

    setFrom(address) {
      const form = get().form;
      if (!form || form.fromAddress === address) return;
      const { accountFrom } = get();
      const before = identityOf(form.fromAddress ?? accountFrom)?.signature ?? null;
      const after = identityOf(address ?? accountFrom)?.signature ?? null;
      editForm({ ...form, fromAddress: address, body: swapSignature(form.body, before, after) });
    },

    addAddresses(field, entries) {
      const form = get().form;
      if (!form || entries.length === 0) return;
      editForm({ ...form, [field]: addEntries(form[field], entries) });
    },

    removeAddress(field, index) {
      const form = get().form;
      if (!form) return;
      editForm({ ...form, [field]: form[field].filter((_, i) => i !== index) });
    },

    showField(field) {
      set(field === 'cc' ? { showCc: true } : { showBcc: true });
    },

    async complete(field, prefix) {
      const serial = ++completionSerial;
      const text = prefix.trim();
      if (text === '') {
        set({ completion: null });
        return;
      }
      // Until this prefix's answer comes, only the offers that still fit it stay (completion-match.ts).
      const shown = get().completion;
      if (shown) {
        const items = shown.items.filter((a) => stillFits(a, text));
        set({ completion: items.length > 0 ? { ...shown, items, at: 0 } : null });
      }
      const reply = await bridge['mail:contacts']({ prefix: text, limit: completionLimit });
      if (serial !== completionSerial) return;
      const taken = new Set((get().form?.[field] ?? []).map(addressKey));
      const items = reply.ok ? reply.value.filter((a) => !taken.has(addressKey(a.address))) : [];
      set({ completion: items.length > 0 ? { field, items, at: 0 } : null });
    },

    moveCompletion(delta) {
      const completion = get().completion;
      if (!completion) return;
      const n = completion.items.length;
      set({ completion: { ...completion, at: (completion.at + delta + n) % n } });
    },

    acceptCompletion() {
      const completion = get().completion;
      const picked = completion?.items[completion.at];
      if (!completion || !picked) return false;
      completionSerial++;
      set({ completion: null });
      get().addAddresses(completion.field, [picked.address]);
      return true;
    },

    endCompletion() {
      completionSerial++;
      if (get().completion) set({ completion: null });
    },

    async attach(files) {
      const draftId = get().draftId;
      if (draftId === null) return;
      for (const file of files) {
        const key = ++uploadSerial;
        const update = (patch: Partial<Upload>) =>
          set((state) => ({ uploads: state.uploads.map((u) => (u.key === key ? { ...u, ...patch } : u)) }));
        set((state) => ({
          uploads: [...state.uploads, { key, name: file.name, size: file.size, sent: 0, error: null }],
        }));
        if (file.size > maxAttachmentBytes) {
          update({
            error: `Bigger than ${formatBytes(maxAttachmentBytes)}, the most one mail carries here.`,
          });
          continue;
        }
        const start = await bridge['draft:attachStart']({
          draftId,
          name: file.name,
          contentType: file.type || 'application/octet-stream',
          size: file.size,
        });
        if (!start.ok) {
          update({ error: start.error.message });
          continue;
        }
        for await (const { offset, data } of fileChunks(file)) {
          const reply = await bridge['draft:attachChunk']({ uploadId: start.value.uploadId, offset, data });
          if (!reply.ok) {
            update({ error: reply.error.message });
            break;
          }
          const { attachment, received } = reply.value;
          if (get().draftId !== draftId) break;
          if (attachment) {
            attachedFiles = true;
            set((state) => ({
              attachments: [...state.attachments, attachment],
              uploads: state.uploads.filter((u) => u.key !== key),
            }));
          } else update({ sent: received });
        }
      }
    },

    async detach(attachmentId) {
      const draftId = get().draftId;
      if (draftId === null) return;
      const reply = await bridge['draft:detach']({ draftId, attachmentId });
      if (get().draftId !== draftId) return;
      if (!reply.ok) set({ error: reply.error.message });
      else set({ attachments: reply.value.attachments });
    },

    dismissUpload(key) {
      set((state) => ({ uploads: state.uploads.filter((u) => u.key !== key) }));
    },

    save: flush,

    async close() {
      const { draftId, form, busy } = get();
      if (busy !== null) return;
      if (draftId === null) {
        // Only a failed opening's sentence is on screen.
        if (!get().opening) set({ ...closed, error: null });
        return;
      }
      set({ busy: 'closing' });
      if (!(await flush())) {
        set({ busy: null });
        return;
      }
      const unwritten =
        fresh && !attachedFiles && form !== null && initial !== null && sameForm(form, initial);
      shut();
      if (unwritten) await bridge['draft:discard']({ id: draftId });
      await announce({ type: 'drafts_changed' });
    },

    async send() {
      const { draftId, form, busy, uploads } = get();
      if (draftId === null || form === null || busy !== null) return;
      const problem =
        sendProblem(form) ??
        (uploads.some((u) => u.error === null)
          ? 'Wait until the attachments have finished uploading.'
          : null);
      if (problem) {
        set({ error: problem });
        return;
      }
      set({ busy: 'sending', error: null, completion: null });
      if (!(await flush())) {
        set({ busy: null, error: get().saveError });
        return;
      }
      const reply = await bridge['draft:send']({ id: draftId });
      if (!reply.ok) {
        set({ busy: null, error: reply.error.message });
        return;
      }
      shut();
      // The countdown with Undo shows in the outbox bar; the drafts count follows.
      await announce({ type: 'draft_sent' });
    },

    askDiscard() {
      const { form, busy } = get();
      if (form === null || busy !== null) return;
      const written =
        attachedFiles || (initial !== null && !sameForm(form, initial)) || (!fresh && hasWriting(form));
      if (written) set({ confirmDiscard: true });
      else void get().discard();
    },

    cancelDiscard() {
      set({ confirmDiscard: false });
    },

    async discard() {
      const { draftId, busy } = get();
      if (draftId === null || (busy !== null && busy !== 'discarding')) return;
      stopTimer();
      set({ busy: 'discarding', error: null });
      // A save still on its way would otherwise land after the discard.
      await saves;
      const reply = await bridge['draft:discard']({ id: draftId });
      if (!reply.ok) {
        set({ busy: null, confirmDiscard: false, error: reply.error.message });
        return;
      }
      shut();
      await announce({ type: 'drafts_changed' });
    },
  };
});
