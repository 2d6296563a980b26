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
