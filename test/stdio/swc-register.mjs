// Lets a plain `node` child run this repository's TypeScript the way Jest does (SWC, legacy
// decorators with metadata): `node --import ./test/stdio/swc-register.mjs entry.ts`.
import { register } from 'node:module';

register('./swc-loader.mjs', import.meta.url);
