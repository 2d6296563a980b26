/**
 * The spec's TitleCollection as clients see it: built from the stored
 * collection, with label and QR URLs presigned at each read to expire at
 * `assets_expires_at`, and no URL at all once that time has passed.
 */
import type { ObjectStore, TitleCollectionView } from '../../core/plugin-api.js';

/** What is stored (table row and the entry's copy): the view without URLs, and the object names. */
export interface StoredCollection {
  collection_id: string;
  mode: 'STUB' | 'LIVE';
  carrier: string;
  service: string;
  return_address: string;
  instructions: string[];
  created_at: string;
  tracking_number: string | null;
  qr_verified: boolean;
  assets_expires_at: string;
}

export interface CollectionAssets {
  /** Object names under the entry's storeIndex. */
  label: string | null;
  qr: string | null;
}

export function presentCollection(
  c: StoredCollection,
  assets: CollectionAssets | undefined,
  storeIndex: string,
  objects: ObjectStore,
  now = Date.now(),
): TitleCollectionView {
  const ttl = Math.floor(Date.parse(c.assets_expires_at) / 1000) - Math.floor(now / 1000);
  const url = (name: string | null | undefined) =>
    name && ttl > 0 ? objects.presign(`${storeIndex}/${name}`, ttl) : null;
  const view: TitleCollectionView = {
    collection_id: c.collection_id,
    mode: c.mode,
    carrier: c.carrier,
    service: c.service,
    return_address: c.return_address,
    instructions: [...c.instructions],
    created_at: c.created_at,
    tracking_number: c.tracking_number,
    label_url: url(assets?.label),
    qr_verified: c.qr_verified,
    assets_expires_at: c.assets_expires_at,
  };
  const qr = url(assets?.qr);
  if (qr) view.qr_url = qr;
  return view;
}
