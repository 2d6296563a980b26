/**
 * Entries as plugins reach them outside a stage's context: by organization
 * and id, with no principal (a plugin's own background work: webhook
 * delivery, form downloads, look-ups by VIN). Injected into plugins by type.
 */
import type { EntityManager } from 'typeorm';
import type { Organization } from '../auth/organizations.js';
import type { TitleEntry } from '../model/entry.js';
import type { EntryStore, StatusField, StoredEntry } from '../store/entry-store.js';

/** How the engine presents an entry to clients (presigned URLs, plugins' `present` hooks). */
export type EntryPresenter = (entry: TitleEntry, ttlSeconds?: number, org?: Readonly<Organization>) => TitleEntry;

export class Entries {
  constructor(
    private readonly store: EntryStore,
    private readonly presenter: EntryPresenter,
  ) {}

  /** The entry for `id` (or the canonical entry of a pointer id); locked for the transaction `m` when given. */
  load(orgId: string, id: string, m?: EntityManager): Promise<StoredEntry | null> {
    return this.store.load(orgId, id, m);
  }

  /** The organization's entry with this VIN, if any. */
  findByVin(orgId: string, vin: string, m?: EntityManager): Promise<StoredEntry | null> {
    return this.store.findByVin(orgId, vin, m);
  }

  /** Writes the entry; with `expectedVersion`, CONFLICT when someone else wrote it since. Returns the new version. */
  save(m: EntityManager, orgId: string, entry: TitleEntry, expectedVersion?: number): Promise<number> {
    return this.store.save(m, orgId, entry, expectedVersion);
  }

  /**
   * Moves one of the entry's status fields through its state machine (core/status.ts; CONFLICT for a
   * move the table refuses) and appends `title.<field>.<status>` to the outbox in the transaction `m`.
   * No move, no event. The caller saves the entry (in the same transaction).
   */
  setStatus(
    m: EntityManager,
    orgId: string,
    entry: TitleEntry,
    field: StatusField,
    to: string,
    payload: Record<string, unknown> = {},
  ): Promise<void> {
    return this.store.setStatus(m, orgId, entry, field, to, payload);
  }

  /** The entry as GET /title/{id} shows it (object keys presigned for `ttlSeconds`, plugins' `present` hooks applied). */
  present(entry: TitleEntry, o: { ttlSeconds?: number; org?: Readonly<Organization> } = {}): TitleEntry {
    return this.presenter(entry, o.ttlSeconds, o.org);
  }
}
