/**
 * The values `ElicitationContext.once` computed in one flow, by the order the handler asked for
 * them: those sealed in the requestState by earlier rounds, then this run's. A value travels as
 * JSON, so every run (the first included) gets its JSON copy.
 */
export class FlowMemos {
  private readonly values: unknown[];
  /** Whether each of {@link values} is known (a computation of this run may still be running). */
  private readonly known: boolean[];
  private cursor = 0;

  constructor(fromState: readonly unknown[] | undefined) {
    this.values = [...(fromState ?? [])];
    this.known = this.values.map(() => true);
  }

  /**
   * The next value of the run: from an earlier round when it has it, else computed now. A value
   * JSON cannot carry (a function, a `bigint`, a cycle) is refused with a `TypeError`; a failing
   * `compute` records nothing.
   */
  async next<T>(compute: () => T | Promise<T>): Promise<T> {
    const index = this.cursor++;
    if (index < this.values.length && this.known[index]) return jsonCopy(this.values[index]) as T;
    this.known[index] = false;
    const value = await compute();
    const text = value === undefined ? 'null' : JSON.stringify(value);
    if (typeof text !== 'string') {
      throw new TypeError('once(compute): the value must be JSON (it is sealed into the requestState)');
    }
    this.values[index] = JSON.parse(text);
    this.known[index] = true;
    return JSON.parse(text) as T;
  }

  /**
   * The values to seal for the next round: the known ones, up to the first still being computed.
   * Not copied: the handler only ever gets copies of them.
   */
  sealed(): unknown[] {
    const unknown = this.known.indexOf(false);
    return unknown === -1 ? this.values.slice() : this.values.slice(0, unknown);
  }
}

/** A deep copy of a JSON value, so that no run changes what a later run gets. */
function jsonCopy(value: unknown): unknown {
  return value === null || typeof value !== 'object' ? value : JSON.parse(JSON.stringify(value));
}
