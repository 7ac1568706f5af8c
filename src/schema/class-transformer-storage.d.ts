// class-transformer publishes its metadata storage only as an internal module whose typings live
// under types/, not beside the JavaScript; this gives the one import we need (in
// class-transformer-metadata.ts) its real type.
declare module 'class-transformer/cjs/storage.js' {
  // eslint-disable-next-line no-restricted-imports
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}
