import { plainToInstance, type ClassTransformOptions } from 'class-transformer';

/** Builds the instance of a flat DTO that validation checks and the handler receives. @internal */
export type FlatDtoBuilder = (raw: object) => object;

const TRANSFORM_OPTIONS: ClassTransformOptions = Object.freeze({ enableImplicitConversion: false });

// Values each property takes in turn while probing: the kinds JSON arguments bring, with case,
// spaces and digits a transform would likely touch. Each property gets a different one per probe,
// so a transform that reads another property shows too.
const PROBE_VALUES: readonly unknown[] = [0, 1, -7, 1.5, 'Probe Value', ' 12 ', '', 'true', true, false, null];

/**
 * How a flat DTO's instance is built per call, decided once per class: `plainToInstance` followed by
 * the whitelist (`validateSync({ whitelist })` keeps only the properties with rules), or — when it
 * builds exactly that — a new instance with the kept properties copied from the arguments, which
 * costs a fraction of class-transformer's walk of its metadata for every key.
 *
 * class-transformer has no public reader for its metadata (`@Expose`, `@Exclude`, `@Type`,
 * `@Transform`), so this asks the public `plainToInstance` at startup instead: both builds must
 * agree on every probe — each kept property absent, then holding each of `PROBE_VALUES` (another
 * value per property in each probe), beside a key without rules — in prototype, keys and values.
 * A class whose constructor keeps a value of its own past the copy, a renamed, excluded or
 * converted property, or a transform that changes any probe makes every call use class-transformer.
 * The copy takes only own properties of the arguments, so `__proto__` and `constructor` keys are
 * plain data, as the whitelist would leave them.
 * @internal
 */
export function compileFlatDtoInstance(dto: Function, kept: ReadonlySet<string>): FlatDtoBuilder {
  const cls = dto as new () => object;
  const names = [...kept];
  const viaClassTransformer: FlatDtoBuilder = (raw) => {
    const instance = plainToInstance(cls, raw, TRANSFORM_OPTIONS) as Record<string, unknown>;
    for (const key of Object.keys(instance)) if (!kept.has(key)) delete instance[key];
    return instance;
  };
  const byCopy: FlatDtoBuilder = (raw) => {
    const instance = new cls() as Record<string, unknown>;
    for (const name of names) {
      if (Object.hasOwn(raw, name)) instance[name] = (raw as Record<string, unknown>)[name];
    }
    return instance;
  };
  try {
    const own = Object.keys(new cls());
    if (own.some((key) => !kept.has(key))) return viaClassTransformer;
    const probes: Record<string, unknown>[] = [{ probeWithoutRules: 1 }];
    for (let round = 0; round < PROBE_VALUES.length; round++) {
      const probe: Record<string, unknown> = { probeWithoutRules: PROBE_VALUES[round] };
      names.forEach((name, index) => (probe[name] = PROBE_VALUES[(round + index) % PROBE_VALUES.length]));
      probes.push(probe);
    }
    return probes.every((probe) => sameInstance(viaClassTransformer(probe), byCopy(probe)))
      ? byCopy
      : viaClassTransformer;
  } catch {
    // A constructor or a transform that throws on a probe: class-transformer decides per call.
    return viaClassTransformer;
  }
}

function sameInstance(expected: object, actual: object): boolean {
  if (Object.getPrototypeOf(expected) !== Object.getPrototypeOf(actual)) return false;
  const keys = Object.keys(expected);
  if (keys.length !== Object.keys(actual).length) return false;
  return keys.every(
    (key) =>
      Object.hasOwn(actual, key) &&
      Object.is((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key]),
  );
}
