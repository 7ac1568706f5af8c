/**
 * Walking an MRTR flow from the client side: the first call, then each retry built from the round
 * before it (the accepting answer to its one `inputRequest` and the `requestState` it returned).
 * Used by the flow loop (flow-rounds.ts) and to prefetch pools of retries before a measured run,
 * so that each retry the load generator sends carries a token minted for it (token-pool.ts).
 */
import type { Agent } from 'node:http';

import { post } from './http-client.js';
import { acceptingAnswer, inputRequiredParts, modernRequest } from './rpc-checks.js';
import type { FixedRequest } from './load.js';

/** A tool call that starts a flow: its tool and arguments. */
export interface FlowCall {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export const firstRequest = (call: FlowCall, extra: Record<string, unknown> = {}): FixedRequest =>
  modernRequest('tools/call', { name: call.name, arguments: call.args, ...extra }, call.name);

/** A walked flow: the next request (not sent) and the requestState size of every round before it. */
export interface WalkedFlow {
  readonly next: FixedRequest;
  readonly tokenChars: number[];
}

/**
 * Sends the first call and `rounds - 1` retries, each answering the round before it, and returns
 * the request of round `rounds` (the retry answering question `rounds`), unsent. Resolves to the
 * problem when a round is not the `input_required` answer expected. `rounds` >= 1.
 */
export async function walkFlow(
  url: string,
  call: FlowCall,
  rounds: number,
  agent?: Agent,
): Promise<WalkedFlow | string> {
  let request = firstRequest(call);
  const tokenChars: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const answer = await post(url, request.headers, request.body, 10_000, agent);
    const parts = inputRequiredParts(answer.status, answer.message);
    if (typeof parts === 'string') return `round ${round} of ${call.name}: ${parts}`;
    tokenChars.push(parts.requestState.length);
    request = firstRequest(call, {
      inputResponses: { [parts.key]: acceptingAnswer(parts.requestedSchema) },
      requestState: parts.requestState,
    });
  }
  return { next: request, tokenChars };
}
