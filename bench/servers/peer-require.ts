/**
 * Loads a benchmark target's packages from the install named by env BENCH_PEER_DIR (a folder with
 * its own package.json and node_modules, e.g. bench/peers/mcp-nest with NestJS 11), or from the
 * repository's own node_modules when it is unset. A target whose library declares another framework
 * major than ours runs on that major this way, while its source is compiled with the rest of the
 * harness (its types come from the repository's install of the same library).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The folder the packages come from: BENCH_PEER_DIR, or undefined for the repository's own. */
export const PEER_DIR = process.env['BENCH_PEER_DIR'] || undefined;

/** `require` resolving from BENCH_PEER_DIR (CommonJS entries; Nest and its libraries ship CommonJS). */
export const requirePeer = createRequire(PEER_DIR ? join(PEER_DIR, 'package.json') : import.meta.url);
