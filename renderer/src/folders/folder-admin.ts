// New folder…, Rename… and Delete… from the folder list (issue 29 §7): each asks first (ask-store.ts), then
// calls folder:*; a refusal (a name taken, a folder with mail in it) is shown as the main process says it.
import type { Folder } from '../../../shared/contract/index.ts';
import { bridge } from '../bridge.ts';
import { useAppStore } from '../stores/app-store.ts';
import { useAskStore } from '../stores/ask-store.ts';
import { useMailStore } from '../stores/mail-store.ts';

// The main process holds the rule (mail/store/folders-admin.ts); the field only stops typing past it.
const maxLength = 100;

async function done(reply: { ok: true } | { ok: false; error: { message: string } }): Promise<void> {
  if (!reply.ok) return useAppStore.getState().showError(reply.error.message);
  await useMailStore.getState().refresh();
}

/** A folder in this account (null: on this computer, for imported mail). */
export async function createFolder(accountId: number | null, where: string): Promise<void> {
  const name = await useAskStore.getState().ask({
    title: `New folder in ${where}`,
    detail: accountId === null ? 'It is kept on this computer.' : 'It is made on the mail server too.',
    confirm: 'Create',
    name: { label: 'Name', value: '', maxLength },
  });
  if (name === null) return;
  await done(await bridge['folder:create']({ accountId, name }));
}

export async function renameFolder(folder: Folder, shown: string): Promise<void> {
  const name = await useAskStore.getState().ask({
    title: `Rename the folder ${shown}`,
    confirm: 'Rename',
    name: { label: 'New name', value: folder.name, maxLength },
  });
  if (name === null || name.trim() === folder.name) return;
  await done(await bridge['folder:rename']({ id: folder.id, name }));
}

export async function deleteFolder(folder: Folder, shown: string): Promise<void> {
  if (folder.total > 0) {
    // The main process refuses it too; saying so here spares a question whose answer cannot be yes.
    const n = folder.total === 1 ? '1 message' : `${folder.total.toLocaleString()} messages`;
    useAppStore
      .getState()
      .showError(
        `“${shown}” still has ${n}. Move them to another folder (or to the Trash) first, then delete the folder.`,
      );
    return;
  }
  const yes = await useAskStore.getState().ask({
    title: `Delete the folder ${shown}?`,
    detail: folder.account === null ? 'It is empty.' : 'It is empty. It goes from the mail server too.',
    confirm: 'Delete folder',
    danger: true,
  });
  if (yes === null) return;
  if (useMailStore.getState().folderId === folder.id) useMailStore.getState().selectView('inbox');
  await done(await bridge['folder:delete']({ id: folder.id }));
}
