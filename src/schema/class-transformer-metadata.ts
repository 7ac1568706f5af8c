import { Expose, TransformationType } from 'class-transformer';
// The one read of class-transformer's metadata storage (see below); its typing is in
// class-transformer-storage.d.ts.
// eslint-disable-next-line no-restricted-imports
import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

/**
 * Whether class-transformer's `plainToInstance` copies each plain key of `dto` onto a new instance
 * unchanged: no class-level strategy, and none of its decorators (`@Expose`, `@Exclude`, `@Type`,
 * `@Transform`) on the class or on `properties`.
 *
 * class-transformer 0.5 has no public way to ask this, so this is the one place that reads its
 * metadata storage (pinned by class-transformer-metadata.spec.ts). The storage is read only when
 * it is the one the library's decorators write to: a bundler that loaded a second copy of
 * class-transformer (its `module` build beside this `cjs` one) makes the answer `undefined`
 * ("cannot tell"), and the caller validates through the library itself.
 */
export function copiesPlainly(dto: Function, properties: readonly string[]): boolean | undefined {
  if (!storageIsShared) return undefined;
  const storage = defaultMetadataStorage;
  if (storage.getStrategy(dto) !== 'none') return false;
  if (storage.getExposedMetadatas(dto).length > 0 || storage.getExcludedMetadatas(dto).length > 0) return false;
  return properties.every(
    (name) =>
      storage.findTypeMetadata(dto, name) === undefined &&
      storage.findTransformMetadatas(dto, name, TransformationType.PLAIN_TO_CLASS).length === 0,
  );
}

/** A class decorated through the library's public entry: the storage read here must see it. */
class Probe {
  value?: unknown;
}
Expose()(Probe.prototype, 'value');
const storageIsShared = defaultMetadataStorage.findExposeMetadata(Probe, 'value') !== undefined;
