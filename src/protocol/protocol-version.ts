/** The protocol revision this module speaks. */
export const PROTOCOL_VERSION = '2026-07-28';

/** Every revision the server accepts in `_meta`; anything else gets -32022. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([PROTOCOL_VERSION]);
