// The `invitation:*` channels (issue 29 §2): a message's event card, its answer through the outbox, and its
// .ics for "Add to calendar" (mail/calendar/invitations.ts). What cannot be read or answered throws
// InvitationError, which the one table (bridge/errors.ts) maps; `invitation:get` answers a sentence instead,
// so a hostile calendar part never keeps the message from showing.
import type { Invitations } from '../../mail/calendar/invitations.ts';
import type { Handlers } from '../dispatch.ts';

type InvitationChannel = 'invitation:get' | 'invitation:respond' | 'invitation:ics';

export function invitationHandlers(deps: { invitations: Invitations }): Pick<Handlers, InvitationChannel> {
  const { invitations } = deps;
  return {
    'invitation:get': (r) => invitations.get(r.message),
    'invitation:respond': (r) => invitations.respond(r.message, r.answer),
    'invitation:ics': async (r) => {
      const { name, content } = await invitations.ics(r.message);
      return { name, data: content.toString('base64') };
    },
  };
}
