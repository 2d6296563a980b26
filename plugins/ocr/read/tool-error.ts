/** A system tool that is missing, failed, ran past its time limit or wrote too much. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly code: 'TOOL_MISSING' | 'TOOL_FAILED' | 'TOOL_TIMEOUT' | 'TOOL_OUTPUT_TOO_LARGE',
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** An error as sent between threads or processes (`rebuildError` makes it an error again). */
export function sentError(e: Error & { code?: unknown }): { message: string; name: string; code?: string } {
  return { message: e.message, name: e.name, ...(typeof e.code === 'string' ? { code: e.code } : {}) };
}

/** An error sent between threads or processes as `{message, name, code}`, rebuilt here (a ToolError keeps its code). */
export function rebuildError(e: { message: string; name: string; code?: string }): Error {
  return e.name === 'ToolError'
    ? new ToolError(e.message, e.code as ToolError['code'])
    : Object.assign(new Error(e.message), { name: e.name, code: e.code });
}

/** The error a tool call rejects with when its signal aborts. */
export function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}
