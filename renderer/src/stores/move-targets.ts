// Which messages of a conversation Archive and Trash move. Viewing a folder, the conversation leaves that
// folder: its messages there move, and its other messages (the user's replies in Sent) stay where they are.
// In All mail or a search there is no folder to leave, so the whole conversation moves. Pure; tested in
// move-targets.test.ts.
import type { MessageView } from '../../../shared/contract/index.ts';

// The contract's bound on ids per call.
const maxMoveIds = 1000;

export function moveTargets(
  messages: readonly Pick<MessageView, 'id' | 'folderId'>[],
  folderId: number | null,
): number[] {
  const moving = folderId === null ? messages : messages.filter((message) => message.folderId === folderId);
  return moving.map((message) => message.id).slice(0, maxMoveIds);
}
