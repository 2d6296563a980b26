/**
 * The carrier provider interface, shaped like the public APIs of the big
 * shipping services (EasyPost, Shippo, UPS/USPS label APIs): create a return
 * shipment from the borrower's address to the organization's receiving
 * facility, get back the shipment id, carrier, service, tracking number, the
 * label PDF, an optional QR code for label-less drop-off and where tracking
 * is shown; read tracking events; void an unused label (its refund). Two implementations: `sandbox` (mode STUB,
 * ./sandbox.ts) and `http` (mode LIVE, ./http-carrier.ts).
 */
import type { ShipperAddress } from '../../core/plugin-api.js';

/** A postal address as carriers take it (the plugin API's ShipperAddress, with a phone). */
export interface CarrierAddress extends ShipperAddress {
  phone?: string;
}

/** The parcel: inches and ounces; `predefined_package` names a carrier envelope. */
export interface Parcel {
  length_in: number;
  width_in: number;
  height_in: number;
  weight_oz: number;
  predefined_package?: string;
}

export interface CreateShipmentRequest {
  from_address: CarrierAddress;
  to_address: CarrierAddress;
  parcel: Parcel;
  service: string;
  /** Our reference printed on the label and echoed in tracking (the collection id). */
  reference: string;
  /** Ask for a QR code for label-less drop-off when the carrier offers one. */
  qr_code: boolean;
  /** Retries with the same key return the same shipment (the collection id). */
  idempotency_key: string;
}

export interface Shipment {
  shipment_id: string;
  carrier: string;
  service: string;
  tracking_number: string;
  /** The 4x6 label, PDF bytes. */
  label_pdf: Buffer;
  /** A QR code image (PNG) for label-less drop-off, when the carrier gave one. */
  qr_png: Buffer | null;
  /** What the QR code encodes (checked after decoding: `qr_verified`). */
  qr_payload: string | null;
  /** Who shows tracking (the entry's `tracking_url_provider`): a tracking page URL. */
  tracking_url: string;
}

export const TRACKING_STATUSES = [
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'return_to_sender',
  'failure',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export interface TrackingEvent {
  /** The carrier's id of the event (events are applied once per id). */
  event_id: string;
  tracking_number: string;
  status: TrackingStatus;
  /** ISO date-time. */
  occurred_at: string;
  description?: string;
  location?: string;
}

export const REFUND_STATUSES = ['submitted', 'refunded', 'rejected'] as const;

/** The carrier's answer to a void: `submitted`/`refunded` (the label is void), `rejected` (refused: it was used). */
export interface VoidResult {
  shipment_id: string;
  refund_status: (typeof REFUND_STATUSES)[number];
}

export interface CarrierProvider {
  readonly name: 'sandbox' | 'http';
  readonly mode: 'STUB' | 'LIVE';
  createReturnShipment(req: CreateShipmentRequest): Promise<Shipment>;
  /** Every tracking event the carrier has for the number, oldest first (the polling fallback). */
  track(trackingNumber: string): Promise<TrackingEvent[]>;
  /** Voids an unused label (asks for its refund); idempotent per shipment. CARRIER_ERROR when it cannot. */
  voidShipment(shipmentId: string): Promise<VoidResult>;
}

/** `street1, street2, city, ST zip` on one line. */
export function oneLine(a: CarrierAddress): string {
  return [a.company || a.name, a.street1, a.street2, `${a.city}, ${a.state} ${a.zip}`].filter(Boolean).join(', ');
}
