import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './async-context.js';

export type { Logger } from 'pino';

/**
 * Paths pino censors. Core never logs request or entry bodies, only ids and
 * codes; this list is the second line of defence for SSN, DOB, license numbers
 * and credentials that might reach a log object by accident.
 */
const SENSITIVE = [
  'ssn',
  'dob',
  'owner_ssn',
  'owner_dob',
  'coowner_ssn',
  'coowner_dob',
  'password',
  'secret',
  'token',
  'authorization',
  'apiKey',
  'cookie',
];
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  'dlid.number',
  '*.dlid.number',
  ...SENSITIVE,
  ...SENSITIVE.map((k) => `*.${k}`),
  ...SENSITIVE.map((k) => `*.*.${k}`),
];

/** Error serializer: pino's, minus what a database error carries of the data (SQL parameters can hold a whole entry). */
function serializeError(e: unknown): unknown {
  const out = pino.stdSerializers.err(e as Error) as unknown as Record<string, unknown>;
  const strip = (o: Record<string, unknown> | undefined, depth: number) => {
    if (!o || typeof o !== 'object' || depth > 4) return;
    delete o.parameters;
    delete o.query;
    delete o.driverError;
    strip(o.cause as Record<string, unknown> | undefined, depth + 1);
  };
  strip(out, 0);
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      name: 'titled',
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeError },
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // the request being served (core/async-context.ts): every log line written for it carries its `reqId`
      mixin: () => {
        const reqId = currentRequestId();
        return reqId ? { reqId } : {};
      },
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
