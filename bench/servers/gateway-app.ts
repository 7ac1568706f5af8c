/**
 * The application of the gateway targets: our benchmark app (mocapi-app.ts, with its own tools)
 * plus `McpClientModule` and `McpGatewayModule` mounting one upstream under {@link GATEWAY_PREFIX},
 * so the upstream's `add` is served as `up_add`. The client is set up as docs/composition.md shows a
 * gateway's: it declares elicitation and hands `input_required` back to the gateway; `era` pins
 * 2026-07-28 (`modern`) or leaves the official client at its default, the 2025 era (`legacy`).
 */
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import type { ClientOptions } from '@modelcontextprotocol/client';

import { McpClientModule } from '../../src/client/index.js';
import { McpGatewayModule } from '../../src/gateway/index.js';
import { GATEWAY_PREFIX } from '../shared/bench-spec.js';
import { buildAppModule } from './mocapi-app.js';

/** How the gateway's connection to its upstream speaks. */
export type UpstreamEra = 'modern' | 'legacy';

/** The name of the upstream in McpClientModule's options. */
const UPSTREAM_CLIENT = 'upstream';

function upstreamClientOptions(era: UpstreamEra): ClientOptions {
  return {
    capabilities: { elicitation: { form: {} } },
    inputRequired: { autoFulfill: false },
    ...(era === 'modern' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
  } as ClientOptions;
}

/** The gateway AppModule: `totalTools` tools of its own, and the upstream at `upstreamUrl` mounted. */
export function buildGatewayModule(totalTools: number, upstreamUrl: string, era: UpstreamEra): Type<unknown> {
  const client: DynamicModule = McpClientModule.forRoot({
    servers: { [UPSTREAM_CLIENT]: { url: upstreamUrl, clientOptions: upstreamClientOptions(era) } },
  });
  @Module({
    imports: [
      buildAppModule(totalTools),
      client,
      McpGatewayModule.forRoot({ upstreams: [{ client: UPSTREAM_CLIENT, prefix: GATEWAY_PREFIX }] }),
    ],
  })
  class GatewayAppModule {}
  return GatewayAppModule;
}
