/**
 * Who made a change, kept on ledger rows and order edits: an API key (by its id, and the name it
 * had, if any), a staff member
 * of the admin (by account id, and the email they had, so a removed account is still named), an
 * import, or the platform (its events, and reconciliation following it).
 */
export type Actor =
  | { type: 'api_key'; id: string; name?: string | null }
  | { type: 'staff'; id: string; email: string }
  | { type: 'import' }
  | { type: 'platform' };

export const IMPORT: Actor = { type: 'import' };
export const PLATFORM: Actor = { type: 'platform' };

/** The three columns an actor is stored in (`actor_type`, `actor_id`, `actor_name`). */
export function actorColumns(actor: Actor): [string, string | null, string | null] {
  if (actor.type === 'staff') return [actor.type, actor.id, actor.email];
  if (actor.type === 'api_key') return [actor.type, actor.id, actor.name ?? null];
  return [actor.type, null, null];
}

/** An actor read back from its columns; null when none was recorded (rows older than actors). */
export function actorFromColumns(type: string | null, id: string | null, name: string | null): Actor | null {
  switch (type) {
    case 'api_key':
      return { type, id: id ?? '', name };
    case 'staff':
      return { type, id: id ?? '', email: name ?? '' };
    case 'import':
    case 'platform':
      return { type };
    default:
      return null;
  }
}
