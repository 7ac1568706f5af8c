// class-transformer publishes its metadata storage only as an internal module whose typings live
// under types/, not beside the JavaScript; this gives the one import we need its real type.
declare module 'class-transformer/cjs/storage.js' {
  import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
  export const defaultMetadataStorage: MetadataStorage;
}
