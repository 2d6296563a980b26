/** Every title route of the spec, with a body where the route takes one. */
export interface TitleRoute {
  method: string;
  path: string;
  body?: unknown;
}

export function titleRoutes(id: string, vin: string): TitleRoute[] {
  return [
    { method: 'POST', path: '/title', body: { account_data: { vehicle: { vin } } } },
    { method: 'GET', path: '/title' },
    { method: 'GET', path: '/title?stateMap=true' },
    { method: 'GET', path: `/title/${id}` },
    { method: 'PATCH', path: `/title/${id}`, body: { account_data: { vehicle: { color: 'Red' } } } },
    { method: 'DELETE', path: `/title/${id}` },
    { method: 'POST', path: `/title/${id}/data`, body: { sync_nmvtis: true } },
    { method: 'POST', path: `/title/${id}/fees` },
    { method: 'POST', path: `/title/${id}/forms` },
    { method: 'POST', path: `/title/${id}/sign`, body: { signers: [] } },
    { method: 'POST', path: `/title/${id}/submit` },
    { method: 'GET', path: `/title/${id}/submit/sub-1` },
  ];
}
