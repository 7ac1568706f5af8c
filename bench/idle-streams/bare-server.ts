// Reference floors for bench/idle-streams.ts (`--adapter node` / `--adapter fastify-bare`): a bare
// node:http server, or a bare Fastify route, that answers every POST with an SSE head and one
// acknowledged event and then holds the response open, as an idle listen stream does, with no MCP
// layer at all. What a stream costs there is what no change of ours can take away. The tools/call
// loop gets a one-line JSON answer. Answers `measure` over IPC like the real server.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { answerParent } from './server-measure.js';

const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' };
const ACK = 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged"}\n\n';
const RESULT = '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"2"}]}}';

function answer(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.headers['mcp-method'] === 'subscriptions/listen') {
      res.writeHead(200, SSE_HEAD);
      res.write(ACK);
    } else {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': RESULT.length });
      res.end(RESULT);
    }
  });
}

export async function serveBare(adapter: 'node' | 'fastify-bare'): Promise<void> {
  let port: number;
  let close: () => Promise<void>;
  if (adapter === 'node') {
    const server = createServer(answer);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  } else {
    const { default: fastify } = await import('fastify');
    const app = fastify();
    app.post('/mcp', (request, reply) => {
      reply.hijack();
      answer(request.raw, reply.raw);
    });
    // Fastify reads the body before the route: the bare route answers from the headers alone.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
    close = () => app.close();
  }
  answerParent();
  process.on('disconnect', () => void close().then(() => process.exit(0)));
  process.send!({ port });
}
