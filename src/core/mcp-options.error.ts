/** Thrown at startup when options are wrong; the message says what to set. */
export class McpOptionsError extends Error {
  constructor(problems: string[]) {
    super(`Invalid McpModule options:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'McpOptionsError';
  }
}
