import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';

/**
 * The class `@Type(() => X)` names for `dto`'s `property` (own or inherited), i.e. the class
 * class-transformer will instantiate for a nested value, or `undefined` when there is none or it
 * cannot be resolved statically (a type function that needs the value to decide).
 *
 * class-transformer has no public reader for this metadata, so this reads its storage module
 * directly. It is the same module instance `plainToInstance` uses: `class-transformer` resolves to
 * `cjs/index.js`, which loads `cjs/storage.js`, under Node and under Jest alike.
 *
 * @internal
 */
export function declaredNestedType(dto: Function, property: string): Function | undefined {
  const metadata = defaultMetadataStorage.findTypeMetadata(dto, property);
  if (!metadata) return undefined;
  let resolved: unknown;
  try {
    resolved = metadata.typeFunction ? metadata.typeFunction() : metadata.reflectedType;
  } catch {
    return undefined;
  }
  return typeof resolved === 'function' ? resolved : undefined;
}
