/** What a completer gets besides the partial value: the other arguments already chosen. */
export interface McpCompletionContext {
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggests values for one prompt argument or template variable (completion/complete). Return
 * candidates for the partial `value`; the module filters them by prefix and caps the list at 100.
 *
 * @publicApi
 */
export type McpCompleter = (
  value: string,
  context: McpCompletionContext,
) => readonly string[] | Promise<readonly string[]>;
