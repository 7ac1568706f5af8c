/** Something registered under a unique name, with the method that provides it (for error messages). */
export interface Registered {
  readonly name: string;
  /** e.g. `OrdersTools.placeOrder`, used to name both sides of a duplicate. */
  readonly source: string;
  /** What list results advertise for it (tool, prompt, resource or template definition). */
  readonly definition: object;
}

export type RegistryListener = () => void;

/**
 * A name-keyed registry that may change at runtime. Readers get a cached array, rebuilt only after
 * a change, so list requests do no per-request work; listeners hear about every change (they drive
 * `list_changed` notifications). Its public side is for reading: changes go through `McpRegistrar`.
 */
export class McpRegistry<T extends Registered> {
  private readonly entries = new Map<string, T>();
  private snapshot: readonly T[] | undefined;
  private definitionSnapshot: readonly T['definition'][] | undefined;
  private readonly listeners = new Set<RegistryListener>();

  constructor(private readonly kind: string) {}

  /**
   * The server's own way in (bootstrap discovery and `McpRegistrar`); applications add and
   * remove entries through `McpRegistrar`, which wraps the method like a decorated one.
   *
   * @internal
   */
  add(entry: T): void {
    const existing = this.entries.get(entry.name);
    if (existing) {
      throw new Error(
        `Duplicate MCP ${this.kind} name "${entry.name}": declared by ${existing.source} and by ${entry.source}. Give one of them another name.`,
      );
    }
    this.entries.set(entry.name, entry);
    this.changed();
  }

  /**
   * Applications remove entries through `McpRegistrar`.
   *
   * @internal
   */
  remove(name: string): boolean {
    const removed = this.entries.delete(name);
    if (removed) this.changed();
    return removed;
  }

  /** The entry registered under `name` (a tool or prompt name, a resource URI or URI template). */
  get(name: string): T | undefined {
    return this.entries.get(name);
  }

  /** How many entries are registered now. */
  get size(): number {
    return this.entries.size;
  }

  /** Every entry, in registration order; a frozen array, the same one until the next change. */
  values(): readonly T[] {
    return (this.snapshot ??= Object.freeze([...this.entries.values()]));
  }

  /** The advertised definitions, computed once per change. */
  definitions(): readonly T['definition'][] {
    return (this.definitionSnapshot ??= Object.freeze(this.values().map((entry) => entry.definition)));
  }

  /** Calls `listener` after every change; the function returned stops that. */
  onChange(listener: RegistryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.snapshot = undefined;
    this.definitionSnapshot = undefined;
    for (const listener of this.listeners) listener();
  }
}
