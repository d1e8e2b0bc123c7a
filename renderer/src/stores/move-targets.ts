// Which messages of a conversation Archive and Trash move. Viewing a folder (or the Inbox, its folders), the
// conversation leaves it: its messages there move, and its other messages (the user's replies in Sent) stay where they are.
// In All mail or a search there is no folder to leave, so the whole conversation moves. Pure; tested in
// move-targets.test.ts.
import type { MessageView } from '../../../shared/contract/index.ts';

// The contract's bound on ids per call.
const maxMoveIds = 1000;

export function moveTargets(
  messages: readonly Pick<MessageView, 'id' | 'folderId'>[],
  leaving: readonly number[] | null,
): number[] {
  const moving =
    leaving === null ? messages : messages.filter((message) => leaving.includes(message.folderId));
  return moving.map((message) => message.id).slice(0, maxMoveIds);
}
