/**
 * PII at rest, assembled from the config: the key provider, the organizations' data keys, the codec, the object
 * sealer.
 */
import type { TitledConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { ObjectSealer } from '../storage/object-store.js';
import { DataKeys } from './data-keys.js';
import { keyProviderFor } from './key-provider.js';
import { isSealedBlob, PiiCodec } from './pii.js';

export { DataKeys } from './data-keys.js';
export { PiiCodec, PII_KEYS, PII_PREFIX } from './pii.js';
export { HttpKeyProvider, LocalKeyProvider, type KeyProvider } from './key-provider.js';

/** Objects that hold what a document or a pull yielded, PII included: `.../extraction*.json`, `...-pull.json`. */
const SEALED_OBJECT = /\/(extraction(-[^/]*)?\.json|[^/]*-pull\.json)$/;

export function createPii(config: Pick<TitledConfig, 'encryption' | 'dataDir'>, db: Database): PiiCodec {
  const keys = new DataKeys(db, keyProviderFor(config), config.encryption.activeKeyCacheMs);
  return new PiiCodec(keys, config.encryption.enabled);
}

/** Seals the objects that hold extractions and pull records; the organization is the key's first segment. */
export function objectSealer(pii: PiiCodec): ObjectSealer {
  const orgOf = (key: string) => key.split('/')[0]!;
  return {
    seals: (key) => pii.enabled && SEALED_OBJECT.test(key),
    seal: (key, data) => pii.sealBlob(orgOf(key), data),
    open: async (key, data) => (isSealedBlob(data) ? pii.openBlob(orgOf(key), data) : data),
  };
}

/**
 * At start: checks that the master keys the stored data keys are wrapped with are at hand (one data key per master
 * key is unwrapped), and makes a data key for every organization without one (outside any transaction).
 */
export async function ensureDataKeys(pii: PiiCodec, db: Database): Promise<void> {
  const masters = await db.query<{ orgId: string; version: number; masterKeyId: string }>(
    'SELECT "orgId", version, "masterKeyId" FROM data_keys k WHERE NOT EXISTS (SELECT 1 FROM data_keys o ' +
      'WHERE o."masterKeyId" = k."masterKeyId" ' +
      'AND (o."orgId" < k."orgId" OR (o."orgId" = k."orgId" AND o.version < k.version)))',
  );
  for (const m of masters) {
    try {
      await pii.keys.key(m.orgId, Number(m.version));
    } catch (e) {
      throw new Error(
        `the database's data keys are wrapped by master key ${m.masterKeyId}, which this process cannot use ` +
          `(${(e as Error).message}); daemons sharing a database need the same encryption.masterKey, key file ` +
          'or http key service',
      );
    }
  }
  if (!pii.enabled) return;
  const missing = await db.query<{ id: string }>(
    'SELECT id FROM organizations o WHERE NOT EXISTS (SELECT 1 FROM data_keys k WHERE k."orgId" = o.id)',
  );
  for (const o of missing) await pii.keys.active(o.id);
}
