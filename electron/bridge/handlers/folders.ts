// The `folder:*` channels (issue 29 §7): thin calls into mail/store/folders-admin.ts, which changes the folder
// here and queues it for the account's server; its refusals are MailErrors (bridge/errors.ts maps them).
import type { prepareFoldersAdmin } from '../../mail/store/folders-admin.ts';
import type { Handlers } from '../dispatch.ts';

export function folderHandlers(deps: {
  folders: ReturnType<typeof prepareFoldersAdmin>;
}): Pick<Handlers, 'folder:create' | 'folder:rename' | 'folder:delete'> {
  const { folders } = deps;
  return {
    'folder:create': (r) => folders.create(r.accountId, r.name),
    'folder:rename': (r) => folders.rename(r.id, r.name),
    'folder:delete': (r) => folders.remove(r.id),
  };
}
