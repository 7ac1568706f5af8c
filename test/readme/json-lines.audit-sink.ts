// json-lines.audit-sink.ts
import type { Writable } from 'node:stream';
import { type McpAuditEvent, McpAuditSink } from '../../src/index.js';

/** One JSON line per finished MCP request, e.g. to a file or stdout for a log shipper. */
export class JsonLinesAuditSink extends McpAuditSink {
  constructor(private readonly out: Writable) {
    super();
  }

  record(event: McpAuditEvent): void {
    this.out.write(`${JSON.stringify(event)}\n`);
  }
}

// McpModule.forRoot({ ..., auditSink: new JsonLinesAuditSink(createWriteStream('audit.jsonl', { flags: 'a' })) })
