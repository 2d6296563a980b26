/**
 * Services one plugin offers another through the engine's container. The
 * providing plugin registers its implementation under the token in its
 * constructor (`container.registerInstance(COLLABORATORS.signing, this.service)`);
 * a consumer resolves it only when `container.isRegistered(token)`, so every
 * plugin still works when the other one is not enabled.
 *
 *   signing           plugins/signing            (issue 14)
 *   titleCollection   plugins/title-collection   (issue 15)
 *   submission        plugins/submission         (issue 16)
 *   extraction        plugins/ocr                (document reading, used by signing for license photos)
 *   carrierEvents     plugins/submission         (MAIL packet shipments; title-collection's webhook forwards to it)
 */
import type { Principal } from '../auth/authenticator.js';

export const COLLABORATORS = {
  signing: Symbol.for('titled.SigningService'),
  titleCollection: Symbol.for('titled.TitleCollectionService'),
  submission: Symbol.for('titled.SubmissionService'),
  extraction: Symbol.for('titled.DocumentExtractionService'),
  /**
   * Zero or more CarrierEventSink (registered with `container.register`, read with `resolveAll`): the
   * title-collection carrier webhook hands them the events of tracking numbers that are not its own.
   */
  carrierEvents: Symbol.for('titled.CarrierEventSink'),
} as const;

/** A postal address as carriers take it. */
export interface ShipperAddress {
  name: string;
  company?: string;
  street1: string;
  street2?: string;
  city: string;
  state: string;
  zip: string;
  country?: string;
}

/** An outbound shipment bought through the configured carrier (Shipper.ship). */
export interface ShipperLabel {
  provider: 'sandbox' | 'http';
  mode: 'STUB' | 'LIVE';
  shipment_id: string;
  carrier: string;
  service: string;
  tracking_number: string;
  tracking_url: string;
  /** The label, PDF bytes. */
  label_pdf: Buffer;
}

/** A carrier tracking event (title-collection's carrier provider statuses). */
export interface ShipperTrackingEvent {
  event_id: string;
  tracking_number: string;
  status: 'pre_transit' | 'in_transit' | 'out_for_delivery' | 'delivered' | 'return_to_sender' | 'failure';
  /** ISO date-time. */
  occurred_at: string;
  description?: string;
  location?: string;
}

/**
 * The carrier's answer to voiding a label (a refund request, as the big shipping APIs take it):
 * `submitted` or `refunded` (the label is void), `rejected` (the carrier refuses: the label was used).
 */
export interface ShipperVoid {
  shipment_id: string;
  refund_status: 'submitted' | 'refunded' | 'rejected';
}

/** The title-collection plugin's configured carrier, for another plugin's own shipments. */
export interface Shipper {
  readonly provider: 'sandbox' | 'http';
  readonly mode: 'STUB' | 'LIVE';
  /** Buys a label; retries with the same `reference` (the idempotency key) return the same shipment. */
  ship(req: {
    from: ShipperAddress;
    to: ShipperAddress;
    reference: string;
    service: string;
    parcel: { length_in: number; width_in: number; height_in: number; weight_oz: number; predefined_package?: string };
  }): Promise<ShipperLabel>;
  /** Every tracking event the carrier has for the number, oldest first. */
  track(trackingNumber: string): Promise<ShipperTrackingEvent[]>;
  /**
   * Voids an unused label (asks the carrier for its refund); asking again for the same shipment gives the same
   * answer and never a second refund. Throws (CARRIER_ERROR) when the carrier cannot be reached or answers an error.
   */
  voidLabel(shipmentId: string): Promise<ShipperVoid>;
}

/** A plugin that owns shipments: takes the carrier webhook's events of its tracking numbers. */
export interface CarrierEventSink {
  /** `{applied}` (false: seen before) for one of its tracking numbers; undefined for a number it does not know. */
  carrierEvent(e: ShipperTrackingEvent, source: 'webhook'): Promise<{ applied: boolean } | undefined>;
}

/** What the document extraction read from one file (plugins/ocr's analysis, reduced). */
export interface ExtractedDocument {
  document_type: string;
  confidence: number;
  /** Flat extracted fields (docs/ocr.md lists them per type). */
  fields: Record<string, unknown>;
  /** What the document contributes to account data. */
  account_data: Record<string, unknown>;
}

/** Reads a document (PDF, JPEG, PNG) the way the ocr stage reads an upload. */
export interface DocumentExtractionService {
  extract(bytes: Buffer, o?: { signal?: AbortSignal }): Promise<ExtractedDocument>;
}

/** The spec's TitleCollection, as the title-collection plugin returns it (URLs presigned for the caller). */
export interface TitleCollectionView {
  collection_id: string;
  mode: 'STUB' | 'LIVE';
  carrier: string;
  service: string;
  /** The spec's TitleCollection has a string (title-collection writes one line); an object is accepted too. */
  return_address: string | Record<string, unknown>;
  instructions: string[];
  created_at: string;
  tracking_number: string | null;
  label_url: string | null;
  qr_url?: string | null;
  qr_verified: boolean;
  assets_expires_at: string;
  [k: string]: unknown;
}

export interface TitleCollectionService {
  /**
   * Creates the entry's title collection at most once (a unique index holds it
   * under concurrent calls) when the organization is enrolled and the entry's
   * state and transaction need the original paper title returned; returns the
   * one that exists, or undefined when none applies.
   */
  ensure(orgId: string, entryId: string): Promise<TitleCollectionView | undefined>;
  /** The entry's collection, if any. */
  get(orgId: string, entryId: string): Promise<TitleCollectionView | undefined>;
  /** A carrier shipment for a WET_SIGN packet (outbound and return label), for `physical_tracking`. */
  wetSignShipment?(
    orgId: string,
    entryId: string,
    signatureRequestId: string,
  ): Promise<Record<string, unknown> | undefined>;
  /** The configured carrier (sandbox or http), for shipments of other plugins (MAIL filing packets). */
  shipper?(): Shipper;
}

/** A signed document, as the submission plugin encloses it in a filing packet. */
export interface SignedDocument {
  /** The form's name on the entry (e.g. `forms_poa`) or the file name. */
  name: string;
  filename: string;
  /** Object key under the entry's store (read with EntryObjects). */
  key: string;
  sha256: string;
}

export interface SigningService {
  /**
   * POST /title/{id}/sign: creates the entry's signature request or returns
   * the open one; `action` is the `?Action=` of the spec (ACTIVATE, BUMP).
   * Returns the SignatureRequest as the API answers it.
   */
  request(p: Principal, entryId: string, body: unknown, action?: string): Promise<Record<string, unknown>>;
  /** The signed copies from the entry's newest COMPLETED request ([] when none). */
  signedDocuments(orgId: string, entryId: string): Promise<SignedDocument[]>;
}

export interface SubmissionService {
  /** POST /title/{id}/submit. */
  submit(p: Principal, entryId: string, body: unknown): Promise<Record<string, unknown>>;
  /** GET /title/{id}/submit/{submissionId}. */
  get(p: Principal, entryId: string, submissionId: string): Promise<Record<string, unknown>>;
}
