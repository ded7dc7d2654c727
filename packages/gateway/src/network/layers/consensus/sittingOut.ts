import type { Member } from '../../members/createMember.js';

/**
 * Whether `m` sits out at `now` (it lost `sitOutAfter` consensus disputes in a row, less than
 * `sitOutMs` ago). A sit-out that has ended is cleared here: it comes back with a clean count.
 *
 * @example
 * if (!sittingOut(member, Date.now())) participants.push(member);
 */
export function sittingOut(m: Member, now: number): boolean {
  if (m.sitOutUntil === undefined) return false;
  if (m.sitOutUntil > now) return true;
  m.sitOutUntil = undefined;
  m.disputesLost = 0;
  return false;
}
