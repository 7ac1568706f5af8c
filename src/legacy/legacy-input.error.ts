/**
 * A 2025-era call that asked for input which could not be obtained: the client cannot receive
 * requests on this response, did not answer in time, answered with an error, or the call asked
 * for more rounds than allowed. Tools report it as an `isError` result, other methods as an error.
 */
export class LegacyInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LegacyInputError';
  }
}
