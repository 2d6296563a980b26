/**
 * The `http` carrier (mode LIVE): a carrier or shipping aggregator reached at
 * a configurable endpoint (docs/title-collection.md has the wire format).
 *
 *   POST {endpoint}/shipments            Idempotency-Key: <collection id>
 *     {from_address, to_address, parcel, service, reference,
 *      options: {label_format: "PDF", label_size: "4x6", qr_code}}
 *   -> {id, carrier, service, tracking_code, tracking_url, label: {pdf_base64}, qr_code?: {png_base64, payload}}
 *   GET  {endpoint}/trackers/{tracking_code}
 *   -> {tracking_code, events: [{id, status, occurred_at, description?, location?}]}
 *   POST {endpoint}/shipments/{id}/refund  Idempotency-Key: refund-<id>   (no body: void the label)
 *   -> {id, refund_status: "submitted" | "refunded" | "rejected"}
 *
 * `Authorization: Bearer <apiKey>` when an API key is configured.
 */
import { TitledError } from '../../core/plugin-api.js';
import {
  REFUND_STATUSES,
  TRACKING_STATUSES,
  type CarrierProvider,
  type CreateShipmentRequest,
  type Shipment,
  type TrackingEvent,
  type TrackingStatus,
  type VoidResult,
} from './carrier.js';

export interface HttpCarrierOptions {
  endpoint: string;
  apiKey?: string;
  timeoutMs: number;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class HttpCarrier implements CarrierProvider {
  readonly name = 'http' as const;
  readonly mode = 'LIVE' as const;
  private readonly base: string;

  constructor(private readonly o: HttpCarrierOptions) {
    this.base = o.endpoint.replace(/\/$/, '');
  }

  private async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Json> {
    let res: Response;
    try {
      res = await fetch(this.base + path, {
        method,
        headers: {
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
          ...headers,
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.o.timeoutMs),
      });
    } catch (e) {
      throw new TitledError('CARRIER_ERROR', `carrier unreachable: ${(e as Error).message}`);
    }
    const text = await res.text();
    if (!res.ok)
      throw new TitledError(
        'CARRIER_ERROR',
        `carrier answered ${res.status} to ${method} ${path}: ${text.slice(0, 200)}`,
      );
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw new TitledError('CARRIER_ERROR', `carrier answered ${method} ${path} with a body that is not JSON`);
    }
  }

  async createReturnShipment(req: CreateShipmentRequest): Promise<Shipment> {
    const r = await this.call(
      'POST',
      '/shipments',
      {
        from_address: req.from_address,
        to_address: req.to_address,
        parcel: req.parcel,
        service: req.service,
        reference: req.reference,
        options: { label_format: 'PDF', label_size: '4x6', qr_code: req.qr_code },
      },
      { 'idempotency-key': req.idempotency_key },
    );
    const need = (v: unknown, what: string): string => {
      if (typeof v !== 'string' || !v) throw new TitledError('CARRIER_ERROR', `carrier shipment without ${what}`);
      return v;
    };
    const label = Buffer.from(need(r.label?.pdf_base64, 'label.pdf_base64'), 'base64');
    if (label.subarray(0, 5).toString('latin1') !== '%PDF-')
      throw new TitledError('CARRIER_ERROR', 'carrier label is not a PDF');
    const qr = typeof r.qr_code?.png_base64 === 'string' ? Buffer.from(r.qr_code.png_base64, 'base64') : null;
    return {
      shipment_id: need(r.id, 'id'),
      carrier: need(r.carrier, 'carrier'),
      service: need(r.service ?? req.service, 'service'),
      tracking_number: need(r.tracking_code, 'tracking_code'),
      label_pdf: label,
      qr_png: qr,
      qr_payload: qr && typeof r.qr_code?.payload === 'string' ? r.qr_code.payload : null,
      tracking_url: typeof r.tracking_url === 'string' ? r.tracking_url : '',
    };
  }

  async track(trackingNumber: string): Promise<TrackingEvent[]> {
    const r = await this.call('GET', `/trackers/${encodeURIComponent(trackingNumber)}`);
    const events = Array.isArray(r.events) ? (r.events as Json[]) : [];
    return events.flatMap((e) => {
      const ev = parseTrackingEvent({ ...e, tracking_number: trackingNumber });
      return ev ? [ev] : [];
    });
  }

  async voidShipment(shipmentId: string): Promise<VoidResult> {
    const path = `/shipments/${encodeURIComponent(shipmentId)}/refund`;
    const r = await this.call('POST', path, undefined, { 'idempotency-key': `refund-${shipmentId}` });
    const status = r.refund_status as VoidResult['refund_status'];
    if (!REFUND_STATUSES.includes(status))
      throw new TitledError('CARRIER_ERROR', `carrier answered POST ${path} without a known refund_status`);
    return { shipment_id: typeof r.id === 'string' && r.id ? r.id : shipmentId, refund_status: status };
  }
}

/** A carrier's event (webhook body or tracker entry) in our shape, or null when it is not one. */
export function parseTrackingEvent(e: Json): TrackingEvent | null {
  const status = String(e.status ?? '') as TrackingStatus;
  const id = e.id ?? e.event_id;
  const tracking = e.tracking_code ?? e.tracking_number;
  if (!TRACKING_STATUSES.includes(status) || typeof id !== 'string' || !id || typeof tracking !== 'string' || !tracking)
    return null;
  const at =
    typeof e.occurred_at === 'string' && !Number.isNaN(Date.parse(e.occurred_at))
      ? e.occurred_at
      : new Date().toISOString();
  return {
    event_id: id.slice(0, 200),
    tracking_number: tracking,
    status,
    occurred_at: at,
    ...(typeof e.description === 'string' ? { description: e.description.slice(0, 500) } : {}),
    ...(typeof e.location === 'string' ? { location: e.location.slice(0, 200) } : {}),
  };
}
