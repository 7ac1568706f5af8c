import { Injectable } from '@nestjs/common';

/**
 * The extensions the server declares in `capabilities.extensions`, in both eras: the
 * `server/discover` result (2026-07-28) and the `initialize` result (2025 era) alike. Integration
 * modules (such as `McpAppsModule`) declare theirs while the application starts, as the HTTP
 * transport declares the Server Card of a server that serves one; an application may declare its
 * own the same way. Tasks, which the core derives from the tools, are not listed here.
 */
@Injectable()
export class McpServerExtensions {
  private readonly declared = new Map<string, Readonly<Record<string, unknown>>>();
  private snapshot: Readonly<Record<string, unknown>> | undefined;

  /**
   * Declares the extension `id` (e.g. `io.modelcontextprotocol/ui`) with its settings. Declaring
   * an id again replaces its settings.
   */
  declare(id: string, settings: Readonly<Record<string, unknown>> = {}): void {
    if (typeof id !== 'string' || id === '') throw new Error('An MCP extension needs an identifier.');
    this.declared.set(id, Object.freeze({ ...settings }));
    this.snapshot = undefined;
  }

  /** Withdraws a declaration; true when there was one. */
  withdraw(id: string): boolean {
    const had = this.declared.delete(id);
    if (had) this.snapshot = undefined;
    return had;
  }

  /** Every declaration, keyed by extension id (the same object until the next change). */
  all(): Readonly<Record<string, unknown>> {
    return (this.snapshot ??= Object.freeze(Object.fromEntries(this.declared)));
  }

  get size(): number {
    return this.declared.size;
  }
}
