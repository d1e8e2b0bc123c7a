// What an update or a cancellation changed since the earlier version of the same event (issue 29 §2): its time,
// its place, its title. Plain data; the card words it in the person's time zone.
import type { Invitation } from './read-invitation.ts';

type When = Invitation['start'];
/** The parts of an event that an update is compared on. */
export type EventVersion = Pick<Invitation, 'title' | 'start' | 'end' | 'location'>;

export type Change =
  | { field: 'time'; from: { start: When; end: When | null }; to: { start: When; end: When | null } }
  | { field: 'location'; from: string | null; to: string | null }
  | { field: 'title'; from: string; to: string };

/** The changes from `before` to `after`, time first; empty when the two agree. */
export function whatChanged(before: EventVersion, after: EventVersion): Change[] {
  const changes: Change[] = [];
  const sameTime =
    before.start.utc === after.start.utc &&
    before.start.allDay === after.start.allDay &&
    (before.end?.utc ?? null) === (after.end?.utc ?? null);
  if (!sameTime) {
    changes.push({
      field: 'time',
      from: { start: before.start, end: before.end },
      to: { start: after.start, end: after.end },
    });
  }
  if ((before.location ?? null) !== (after.location ?? null))
    changes.push({ field: 'location', from: before.location, to: after.location });
  if (before.title !== after.title) changes.push({ field: 'title', from: before.title, to: after.title });
  return changes;
}
