import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/database.js';
import { TitledError } from '../errors.js';

export interface Organization {
  id: string;
  /** The organization identifier (an entry's `website`). */
  name: string;
  /** Per-organization switches: e.g. `preview` (account_facts), `physical_title_events`. */
  settings: Record<string, unknown>;
  createdAt: number;
}

const NAME_RE = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export class Organizations {
  /** @param onCreate runs after an organization is made (the engine makes its data key) */
  constructor(
    private readonly db: Database,
    private readonly onCreate?: (org: Organization) => Promise<void>,
  ) {}

  async create(name: string, settings: Record<string, unknown> = {}): Promise<Organization> {
    if (!NAME_RE.test(name))
      throw new TitledError(
        'INVALID_INPUT',
        'organization name: lowercase letters, digits, ".", "_", "-" (1-100 characters), starting with a letter or digit',
      );
    const org: Organization = { id: randomUUID(), name, settings, createdAt: Date.now() };
    try {
      await this.db.exec('INSERT INTO organizations (id, name, settings, "createdAt") VALUES (?, ?, ?, ?)', [
        org.id,
        name,
        JSON.stringify(settings),
        org.createdAt,
      ]);
    } catch (e) {
      if (isUniqueViolation(e)) throw new TitledError('CONFLICT', `organization '${name}' exists`);
      throw e;
    }
    await this.onCreate?.(org);
    return org;
  }

  async byName(name: string): Promise<Organization | null> {
    return this.find('name', name);
  }

  async byId(id: string): Promise<Organization | null> {
    return this.find('id', id);
  }

  async list(): Promise<Organization[]> {
    return (await this.db.query<Record<string, unknown>>('SELECT * FROM organizations ORDER BY name')).map(toOrg);
  }

  async updateSettings(name: string, patch: Record<string, unknown>): Promise<Organization> {
    const org = await this.byName(name);
    if (!org) throw new TitledError('NOT_FOUND', `no organization '${name}'`);
    org.settings = { ...org.settings, ...patch };
    // a member set to null is removed (as in a JSON merge patch)
    for (const [k, v] of Object.entries(patch)) if (v === null) delete org.settings[k];
    await this.db.exec('UPDATE organizations SET settings = ? WHERE id = ?', [JSON.stringify(org.settings), org.id]);
    return org;
  }

  private async find(col: 'id' | 'name', v: string): Promise<Organization | null> {
    const rows = await this.db.query<Record<string, unknown>>(`SELECT * FROM organizations WHERE ${col} = ?`, [v]);
    return rows[0] ? toOrg(rows[0]) : null;
  }
}

function toOrg(r: Record<string, unknown>): Organization {
  return {
    id: String(r.id),
    name: String(r.name),
    settings: JSON.parse(String(r.settings)) as Record<string, unknown>,
    createdAt: Number(r.createdAt),
  };
}
