import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { catchError, type Observable, of, throwError } from 'rxjs';
import { isInputRequired } from './exceptions/input-required.exception.js';
import { mcpCallScope } from './mcp-call-scope.js';

/**
 * Turns the internal "input required" control signal into an `InputRequiredResult` carrying a
 * freshly sealed requestState. The module attaches it as the innermost interceptor of every MCP
 * handler, so it runs before any interceptor or exception filter of the application sees the
 * signal. It holds no state: the call's replay session and how to seal it come from the call's
 * async scope, so one instance serves every application in the process.
 */
export class InputRequiredInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      catchError((error: unknown) => {
        const scope = mcpCallScope.getStore();
        return isInputRequired(error) && scope ? of(scope.seal(error)) : throwError(() => error);
      }),
    );
  }
}

/** The one instance every MCP handler is wrapped with. */
export const INPUT_REQUIRED_INTERCEPTOR = new InputRequiredInterceptor();
