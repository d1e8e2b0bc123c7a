// Calendar invitations in the reader (issue 29 §2; DESIGN §11, "Invitations"): a message's calendar part read
// into the event card, compared with the earlier version of the same event Skimmer read, and answered with
// the iTIP REPLY (RFC 5546) as an email through the outbox (RFC 6047), so it has the same Undo as any send.
// Owns `invitation_answers` and `invitation_versions` (migration 0046). The answer is kept per account and UID
// with the outbox message that carries it: it stands while that message is queued, sending or sent; an Undo
// takes the message out of the outbox (back to the drafts, as any Undo does) and with it the answer.
import ICAL from 'ical.js';
import { calendarPartIndex } from '../../../shared/calendar-part.ts';
import { addressKey } from '../../../shared/mail-address.ts';
import type { Db } from '../../db/open.ts';
import { AttachmentError } from '../attachments/attachment-error.ts';
import type { AttachmentStore } from '../attachments/attachment-store.ts';
import type { prepareIdentities } from '../identities.ts';
import { MailError } from '../mail-error.ts';
import type { prepareDrafts } from '../send/drafts.ts';
import type { OutboxItem } from '../send/outbox.ts';
import { type Answer, buildReply } from './build-reply.ts';
import { InvitationError } from './invitation-error.ts';
import { type Invitation, readInvitation } from './read-invitation.ts';
import { type Change, type EventVersion, whatChanged } from './what-changed.ts';

export type { Answer };

type AnswerState = 'queued' | 'sending' | 'sent';
type InvitationCard = Invitation & {
  /** An earlier version of this event (a lower SEQUENCE, or the invitation a cancellation cancels) was read. */
  update: boolean;
  changes: Change[];
  /** Which of your addresses the invitation names as an attendee: the one an answer is sent from. */
  invited: string | null;
  /** Your answer to this event, while the message carrying it is queued, on its way or sent. */
  answer: { answer: Answer; sequence: number; outboxId: number; state: AnswerState } | null;
};
export type InvitationView =
  | { kind: 'invitation'; card: InvitationCard }
  | { kind: 'unreadable'; sentence: string }
  | { kind: 'none' };

const subjects: Record<Answer, string> = {
  ACCEPTED: 'Accepted',
  TENTATIVE: 'Tentative',
  DECLINED: 'Declined',
};
const verbs: Record<Answer, string> = {
  ACCEPTED: 'accepted',
  TENTATIVE: 'tentatively accepted',
  DECLINED: 'declined',
};

type VersionRow = {
  sequence: number;
  method: string;
  title: string;
  start_json: string;
  end_json: string | null;
  location: string | null;
};
type AnswerRow = { answer: Answer; sequence: number; outbox_id: number; state: AnswerState };

/** One sentence for a calendar part that cannot be read, starting the way the card's note does. */
function unreadableSentence(message: string): string {
  if (/^This invitation could not be read/.test(message)) return message;
  const lower = message.replace(/^(This|The) /, (w) => w.toLowerCase());
  return `This invitation could not be read: ${lower}`;
}

export function prepareInvitations(
  db: Db,
  deps: {
    /** The app's one attachment store: its cache keeps the part for the next open of the card. */
    files: Pick<AttachmentStore, 'list' | 'one'>;
    drafts: Pick<ReturnType<typeof prepareDrafts>, 'create' | 'attachFile' | 'send'>;
    identities: Pick<ReturnType<typeof prepareIdentities>, 'list'>;
    now?: () => number;
  },
) {
  const now = deps.now ?? Date.now;
  const accountOf = db
    .prepare<[number], number>(
      'SELECT f.account_id FROM messages m JOIN folders f ON f.id = m.folder_id WHERE m.id = ?',
    )
    .pluck();
  const record = db.prepare(
    `INSERT INTO invitation_versions (account_id, uid, message_id, sequence, method, title, start_json, end_json,
       location, seen_at)
     VALUES (@account, @uid, @message, @sequence, @method, @title, @start, @end, @location, @at)
     ON CONFLICT (account_id, uid, message_id) DO UPDATE SET sequence = excluded.sequence,
       method = excluded.method, title = excluded.title, start_json = excluded.start_json,
       end_json = excluded.end_json, location = excluded.location`,
  );
  // The version an update replaces: the latest earlier SEQUENCE; for a cancellation, the latest invitation.
  const earlierUpdate = db.prepare<[number, string, number, number], VersionRow>(
    `SELECT * FROM invitation_versions WHERE account_id = ? AND uid = ? AND message_id <> ? AND sequence < ?
     ORDER BY sequence DESC, seen_at DESC LIMIT 1`,
  );
  const earlierInvitation = db.prepare<[number, string, number, number], VersionRow>(
    `SELECT * FROM invitation_versions WHERE account_id = ? AND uid = ? AND message_id <> ? AND sequence <= ?
       AND method = 'REQUEST'
     ORDER BY sequence DESC, seen_at DESC LIMIT 1`,
  );
  const answerOf = db.prepare<[number, string], AnswerRow>(
    `SELECT a.answer, a.sequence, a.outbox_id, o.state FROM invitation_answers a JOIN outbox o ON o.id = a.outbox_id
     WHERE a.account_id = ? AND a.uid = ? AND o.state IN ('queued', 'sending', 'sent')
     ORDER BY a.answered_at DESC, a.id DESC LIMIT 1`,
  );
  const keepAnswer = db.prepare(
    `INSERT INTO invitation_answers (account_id, uid, sequence, answer, answered_at, message_id, outbox_id)
     VALUES (@account, @uid, @sequence, @answer, @at, @message, @outbox)`,
  );
  // SECURITY: a calendar part is read from the mail's file or server once and kept in the attachment store's
  // bounded cache for the next look, so opening a thread again costs no new IMAP connection.

  const account = (message: number): number => {
    const a = accountOf.get(message);
    if (a === undefined) throw new MailError('not_found', `There is no message with id ${message}.`);
    return a;
  };

  /** The calendar part's text, or null when the message has none. */
  async function partText(message: number): Promise<string | null> {
    const index = calendarPartIndex(deps.files.list(message));
    if (index === null) return null;
    const part = await deps.files.one(message, index);
    // SECURITY: bounded before it is decoded; readInvitation bounds it again, to the same size, in characters.
    if (part.content.length > 256 * 1024)
      throw new InvitationError('too_large', 'This invitation is too large to read (over 256 KB).');
    return part.content.toString('utf8');
  }

  async function invitationText(message: number): Promise<{ text: string; invitation: Invitation }> {
    const text = await partText(message);
    if (text === null) throw new InvitationError('unsupported', 'This message has no invitation in it.');
    return { text, invitation: readInvitation(text) };
  }

  // Your address among the attendees: the account's own address first, then any other of yours.
  function invitedAddress(everyone: readonly string[]): string | null {
    const yours = deps.identities.list();
    const mine = new Set(yours.map((i) => i.address));
    const invited = everyone.map(addressKey).filter((a) => mine.has(a));
    const own = yours.filter((i) => i.account !== null).map((i) => i.address);
    return invited.find((a) => own.includes(a)) ?? invited[0] ?? null;
  }

  // Every attendee's address, not only the ten the card shows: you may be the eleventh. The text was read by
  // readInvitation first, so it is within its bounds (size, at most 1000 attendees).
  function attendeeAddresses(text: string): string[] {
    const event = new ICAL.Component(ICAL.parse(text) as unknown[]).getFirstSubcomponent('vevent');
    return (event?.getAllProperties('attendee') ?? []).map((p) =>
      String(p.getFirstValue() ?? '').replace(/^mailto:/i, ''),
    );
  }

  function versionOf(r: VersionRow): EventVersion {
    return {
      title: r.title,
      start: JSON.parse(r.start_json) as Invitation['start'],
      end: r.end_json === null ? null : (JSON.parse(r.end_json) as Invitation['start']),
      location: r.location,
    };
  }

  return {
    /** The card for message `message`'s invitation, a sentence when it cannot be read, or `none`. */
    async get(message: number): Promise<InvitationView> {
      const acct = account(message);
      let text: string | null;
      let invitation: Invitation;
      try {
        text = await partText(message);
        if (text === null) return { kind: 'none' };
        // An answer to an invitation (yours in Sent, or one to you as organiser) is not an invitation to show.
        if (/^METHOD:REPLY\s*$/im.test(text)) return { kind: 'none' };
        invitation = readInvitation(text);
      } catch (e) {
        if (e instanceof InvitationError || e instanceof AttachmentError)
          return { kind: 'unreadable', sentence: unreadableSentence(e.message) };
        throw e;
      }
      const key = [acct, invitation.uid, message, invitation.sequence] as const;
      const earlier =
        invitation.method === 'CANCEL' ? earlierInvitation.get(...key) : earlierUpdate.get(...key);
      record.run({
        account: acct,
        uid: invitation.uid,
        message,
        sequence: invitation.sequence,
        method: invitation.method,
        title: invitation.title,
        start: JSON.stringify(invitation.start),
        end: invitation.end === null ? null : JSON.stringify(invitation.end),
        location: invitation.location,
        at: now(),
      });
      const answer = answerOf.get(acct, invitation.uid);
      return {
        kind: 'invitation',
        card: {
          ...invitation,
          update: earlier !== undefined,
          changes: earlier ? whatChanged(versionOf(earlier), invitation) : [],
          invited: invitedAddress(attendeeAddresses(text)),
          answer: answer
            ? {
                answer: answer.answer,
                sequence: answer.sequence,
                outboxId: answer.outbox_id,
                state: answer.state,
              }
            : null,
        },
      };
    },

    /**
     * Answers the invitation in message `message`: the REPLY from the address that was invited, to the
     * organiser, queued in the outbox (the undo window applies) as a reply to the invitation's message.
     */
    async respond(message: number, answer: Answer): Promise<OutboxItem> {
      const acct = account(message);
      const { text, invitation } = await invitationText(message);
      if (invitation.method !== 'REQUEST')
        throw new InvitationError('unsupported', 'A cancelled event cannot be answered.');
      const organizer = invitation.organizer?.address;
      if (!organizer || !/^[^\s@]+@[^\s@]+$/.test(organizer))
        throw new InvitationError('unsupported', 'This invitation names no organiser to answer.');
      const invited = invitedAddress(attendeeAddresses(text));
      if (invited === null)
        throw new InvitationError(
          'unsupported',
          'None of your addresses is among the people invited: add the invited address under Your addresses to answer.',
        );
      const reply = buildReply(text, invited, answer, new Date(now()));
      return db.transaction(() => {
        const draft = deps.drafts.create(
          {
            to: [organizer],
            cc: [],
            subject: `${subjects[answer]}: ${invitation.title}`,
            body: `${invited} has ${verbs[answer]} the invitation to "${invitation.title}".\n`,
            inReplyTo: message,
            fromAddress: invited,
          },
          // Never kept in the server's Drafts: it goes straight to the outbox.
          { local: true },
        );
        // compose.ts sends a text/calendar;method=REPLY file as the message's calendar alternative (RFC 6047).
        deps.drafts.attachFile(draft.id, {
          name: 'reply.ics',
          contentType: 'text/calendar; method=REPLY; charset=utf-8',
          content: Buffer.from(reply, 'utf8'),
        });
        const item = deps.drafts.send(draft.id);
        keepAnswer.run({
          account: acct,
          uid: invitation.uid,
          sequence: invitation.sequence,
          answer,
          at: now(),
          message,
          outbox: item.id,
        });
        return item;
      })();
    },

    /** The invitation's calendar as a file for "Add to calendar"; only one Skimmer can read is given. */
    async ics(message: number): Promise<{ name: string; content: Buffer }> {
      account(message);
      const { text, invitation } = await invitationText(message);
      return { name: `${invitation.title}.ics`, content: Buffer.from(text, 'utf8') };
    },
  };
}

export type Invitations = ReturnType<typeof prepareInvitations>;
