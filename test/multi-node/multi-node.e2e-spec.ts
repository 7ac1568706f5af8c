import { Inject, Injectable, Module } from '@nestjs/common';
import { ElicitationContext, McpModule, McpTool } from '../../src/index.js';
import { connectOfficialClient } from '../support/official-client.js';
import { type AdapterKind, type RunningApp, startApp } from '../support/start-app.js';
import { type Balancer, startNginx } from './nginx-balancer.js';

const SHARED_SECRETS = ['multi-node-secret-0123456789-abcdefghijklmnop'];
const NODE_NAME = Symbol('node-name');
/** How many times each node ran the handler. */
const runsByNode: Record<string, number> = {};

@Injectable()
class SurveyTools {
  constructor(
    private readonly elicitation: ElicitationContext,
    @Inject(NODE_NAME) private readonly node: string,
  ) {}

  @McpTool({ name: 'survey', description: 'Asks three questions' })
  async survey(): Promise<string> {
    runsByNode[this.node] = (runsByNode[this.node] ?? 0) + 1;
    const name = await this.elicitation.elicit('Your name?', (s) => s.string('name'));
    const city = await this.elicitation.elicit('Your city?', (s) => s.string('city'));
    const happy = await this.elicitation.elicit('Happy?', (s) => s.boolean('happy'));
    if (name.action !== 'accept' || city.action !== 'accept' || happy.action !== 'accept') return 'incomplete';
    return `${name.content.name} from ${city.content.city} is ${happy.content.happy ? 'happy' : 'not happy'}`;
  }
}

function nodeModule(node: string): new () => object {
  @Module({
    imports: [McpModule.forRoot({ name: 'survey', version: '1.0.0', mrtr: { secrets: SHARED_SECRETS } })],
    providers: [SurveyTools, { provide: NODE_NAME, useValue: node }],
  })
  class NodeModule {}
  return NodeModule;
}

describe('two nodes behind a real load balancer (nginx, round robin)', () => {
  const nodes: RunningApp[] = [];
  let balancer: Balancer;

  beforeAll(async () => {
    for (const [name, adapter] of [
      ['node-a', 'express'],
      ['node-b', 'fastify'],
    ] as Array<[string, AdapterKind]>) {
      nodes.push(await startApp(nodeModule(name), adapter));
    }
    balancer = await startNginx(nodes.map((n) => Number(new URL(n.url).port)));
  });
  afterAll(async () => {
    await balancer?.stop();
    for (const node of nodes) await node.close();
  });

  it('completes a multi-round elicitation flow whose rounds land on different nodes', async () => {
    const answers: Record<string, Record<string, unknown>> = {
      name: { name: 'Ada' },
      city: { city: 'Porto' },
      happy: { happy: true },
    };
    const client = await connectOfficialClient(balancer.url, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      const field = Object.keys(
        (request.params as { requestedSchema: { properties: object } }).requestedSchema.properties,
      )[0]!;
      return { action: 'accept', content: answers[field] } as never;
    });
    try {
      for (const key of Object.keys(runsByNode)) delete runsByNode[key];
      const result = await client.callTool({ name: 'survey', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Ada from Porto is happy' }]);
      // Three questions take four rounds, and round robin spreads them over both nodes.
      expect((runsByNode['node-a'] ?? 0) + (runsByNode['node-b'] ?? 0)).toBe(4);
      expect(runsByNode['node-a']).toBeGreaterThan(0);
      expect(runsByNode['node-b']).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
