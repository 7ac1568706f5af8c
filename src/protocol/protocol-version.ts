/** The protocol revision this module speaks. */
export const PROTOCOL_VERSION = '2026-07-28';

/** Every revision the server accepts in `_meta`; anything else gets -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([PROTOCOL_VERSION]);

/**
 * The 2025-era revisions a dual-era server negotiates through `initialize`, newest first: a client
 * asking for one of them gets it echoed, any other request gets the first.
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = Object.freeze(['2025-11-25', '2025-06-18', '2025-03-26']);

/** Revisions are dates, so they order as strings: every revision from 2026-07-28 on is modern. */
export function isModernProtocolVersion(version: string): boolean {
  return version >= PROTOCOL_VERSION;
}

/** The 2025 negotiation rule: echo a supported requested version, else offer the latest. */
export function negotiateLegacyVersion(requested: unknown): string {
  return typeof requested === 'string' && LEGACY_PROTOCOL_VERSIONS.includes(requested)
    ? requested
    : LEGACY_PROTOCOL_VERSIONS[0]!;
}
