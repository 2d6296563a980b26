/**
 * The sandbox carrier (mode STUB): no network. It draws a real 4x6 label PDF
 * (./label.ts) and a QR code PNG (the `qrcode` package), and gives
 * deterministic numbers (docs/title-collection.md):
 *
 * - tracking number: `TS` + 17 digits taken from SHA-256(reference) as a big
 *   number mod 10^17 + one Luhn check digit (20 characters), so the same
 *   collection always gets the same number;
 * - shipment id: `shp_sbx_` + the first 24 hex digits of SHA-256(reference);
 * - QR payload: `TITLED-DROPOFF:<tracking number>`;
 * - tracking: a single `pre_transit` event (label created); later events are
 *   played by `titled collections simulate` (or POST .../collection/simulate);
 * - void: a shipment id of the sandbox's form (`shp_sbx_` + 24 hex digits) is
 *   voided with `refund_status: "submitted"`, every time it is asked (the
 *   sandbox keeps no state, so it cannot refuse a scanned label: the caller
 *   checks the scans); any other id is CARRIER_ERROR (no such shipment).
 */
import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { TitledError } from '../../core/plugin-api.js';
import type { CarrierProvider, CreateShipmentRequest, Shipment, TrackingEvent, VoidResult } from './carrier.js';
import { drawLabel } from './label.js';

export const SANDBOX_CARRIER = 'Titled Sandbox Post';

function luhn(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** The sandbox's tracking number of a reference (deterministic, documented above). */
export function sandboxTrackingNumber(reference: string): string {
  const hex = createHash('sha256').update(reference).digest('hex');
  const body = (BigInt('0x' + hex) % 10n ** 17n).toString().padStart(17, '0');
  return `TS${body}${luhn(body)}`;
}

export function qrPng(payload: string): Promise<Buffer> {
  return QRCode.toBuffer(payload, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 300 });
}

export class SandboxCarrier implements CarrierProvider {
  readonly name = 'sandbox' as const;
  readonly mode = 'STUB' as const;

  constructor(private readonly trackingBase = 'https://sandbox.titled.invalid/track/') {}

  async createReturnShipment(req: CreateShipmentRequest): Promise<Shipment> {
    const tracking = sandboxTrackingNumber(req.reference);
    const payload = `TITLED-DROPOFF:${tracking}`;
    const [label, qr] = await Promise.all([
      drawLabel({
        from: req.from_address,
        to: req.to_address,
        carrier: SANDBOX_CARRIER,
        service: req.service,
        tracking_number: tracking,
        reference: req.reference,
        banner: 'SANDBOX - NOT A REAL SHIPPING LABEL',
      }),
      req.qr_code ? qrPng(payload) : Promise.resolve(null),
    ]);
    return {
      shipment_id: 'shp_sbx_' + createHash('sha256').update(req.reference).digest('hex').slice(0, 24),
      carrier: SANDBOX_CARRIER,
      service: req.service,
      tracking_number: tracking,
      label_pdf: label,
      qr_png: qr,
      qr_payload: qr ? payload : null,
      tracking_url: this.trackingBase + tracking,
    };
  }

  async track(trackingNumber: string): Promise<TrackingEvent[]> {
    return [
      {
        event_id: `${trackingNumber}-pre_transit`,
        tracking_number: trackingNumber,
        status: 'pre_transit',
        occurred_at: new Date(0).toISOString(),
        description: 'Shipping label created (sandbox)',
      },
    ];
  }

  async voidShipment(shipmentId: string): Promise<VoidResult> {
    if (!/^shp_sbx_[0-9a-f]{24}$/.test(shipmentId))
      throw new TitledError('CARRIER_ERROR', `the sandbox carrier has no shipment ${shipmentId.slice(0, 100)}`);
    return { shipment_id: shipmentId, refund_status: 'submitted' };
  }
}
