import { Catch, type ExceptionFilter } from '@nestjs/common';
import { InputRequiredException } from './exceptions/input-required.exception.js';

/**
 * Lets the input-required signal pass straight through the exception-filter stage. Guards run
 * outside interceptors, so a guard that elicits raises the signal where the application's
 * exception filters would catch it; handler-level filters are consulted first, so this one, attached
 * to every MCP handler, hands the signal on to the module untouched.
 */
@Catch(InputRequiredException)
export class InputRequiredFilter implements ExceptionFilter {
  catch(signal: InputRequiredException): never {
    throw signal;
  }
}

/** The one instance every MCP handler is wrapped with. */
export const INPUT_REQUIRED_FILTER = new InputRequiredFilter();
