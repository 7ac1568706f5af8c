// A stdio MCP server process for the e2e tests: node --import ./test/stdio/swc-register.mjs test/stdio/stdio-server.ts
import 'reflect-metadata';
import { bootstrapStdio } from '../../src/transport/stdio/index.js';
import { StdioToolsModule } from './stdio-tools.module.js';

await bootstrapStdio(StdioToolsModule);
