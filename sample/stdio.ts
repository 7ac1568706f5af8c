// The sample over stdio, for MCP clients that launch servers as a child process:
//   node dist/sample/stdio.js   (after `nest build`)
import 'reflect-metadata';
import { bootstrapStdio } from '../src/transport/stdio/index.js';
import { AppModule } from './app.module.js';

await bootstrapStdio(AppModule);
