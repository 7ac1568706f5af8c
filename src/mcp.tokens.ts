/**
 * Slots through which integration modules (such as `@mocapi/nestjs/oauth2`) contribute
 * implementations. The core resolves each seam as: the application's own (from `McpModule`
 * options) > the integration slot > the core default, so module import order never matters.
 * An integration module provides a slot from a `@Global()` module.
 */
export const INTEGRATION_PRINCIPAL_SOURCE = Symbol.for('mocapi:integration-principal-source');
export const INTEGRATION_ACCESS_POLICY = Symbol.for('mocapi:integration-access-policy');
export const INTEGRATION_HTTP_AUTHENTICATOR = Symbol.for('mocapi:integration-http-authenticator');
