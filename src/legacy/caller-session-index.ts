/**
 * Which 2025-era session states each caller holds on this node, least recently used first: the
 * order in which they give way. A caller is its principal, else its client address (see
 * `LegacySessions`); the index knows ids only, and is asked which one may go through `canGo`
 * (a state with work open may not).
 */
export class CallerSessionIndex {
  private readonly byCaller = new Map<string, Set<string>>();
  /** Each caller's most recently used state: used again, it changes no order. */
  private readonly newest = new Map<string, string>();

  /** How many states `caller` holds here. */
  count(caller: string): number {
    return this.byCaller.get(caller)?.size ?? 0;
  }

  /** Records `id` as `caller`'s most recently used state. */
  touch(caller: string, id: string): void {
    if (this.newest.get(caller) === id) return;
    let ids = this.byCaller.get(caller);
    if (!ids) this.byCaller.set(caller, (ids = new Set()));
    ids.delete(id);
    ids.add(id);
    this.newest.set(caller, id);
  }

  remove(caller: string, id: string): void {
    const ids = this.byCaller.get(caller);
    ids?.delete(id);
    if (ids?.size === 0) this.byCaller.delete(caller);
    if (this.newest.get(caller) === id) this.newest.delete(caller);
  }

  clear(): void {
    this.byCaller.clear();
    this.newest.clear();
  }

  /** `caller`'s least recently used state that may go, if any. */
  oldestOf(caller: string, canGo: (id: string) => boolean): string | undefined {
    return oldest(this.byCaller.get(caller), canGo);
  }

  /**
   * The least recently used state that may go of the caller holding the most; when all of that
   * caller's are busy (rare), of the next largest, and so on.
   */
  oldestOfLargest(canGo: (id: string) => boolean): string | undefined {
    let largest: Set<string> | undefined;
    for (const ids of this.byCaller.values()) if (!largest || ids.size > largest.size) largest = ids;
    const found = oldest(largest, canGo);
    if (found !== undefined || !largest) return found;
    const bySize = [...this.byCaller.values()].sort((a, b) => b.size - a.size);
    for (const ids of bySize) {
      const id = ids === largest ? undefined : oldest(ids, canGo);
      if (id !== undefined) return id;
    }
    return undefined;
  }
}

function oldest(ids: ReadonlySet<string> | undefined, canGo: (id: string) => boolean): string | undefined {
  if (ids) for (const id of ids) if (canGo(id)) return id;
  return undefined;
}
