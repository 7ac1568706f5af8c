// A Standard Schema the module cannot turn into an advertised schema stops the application at
// startup, with a message that names the tool and says what to set.
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import * as v from 'valibot';
import { z } from 'zod';
import { McpModule, McpTool, type StandardSchemaV1 } from '../../src/index.js';

function appWith(tools: Function): Promise<unknown> {
  @Module({ imports: [McpModule.forRoot({ name: 'startup', version: '0.0.1' })], providers: [tools as never] })
  class StartupModule {}
  return NestFactory.create(StartupModule, { logger: false, abortOnError: false }).then(async (app) => {
    await app.init();
    return app.close();
  });
}

describe('Standard Schema tools at startup', () => {
  it('refuses a valibot input without an inputSchema beside it, naming the tool', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: v.object({ a: v.string() }) })
      book() {
        return 'ok';
      }
    }
    await expect(appWith(Tools)).rejects.toThrow(
      'MCP tool "book" (Tools.book): its input (a valibot schema) does not implement Standard JSON Schema (~standard.jsonSchema), so no inputSchema can be derived from it: set inputSchema beside it',
    );
  });

  it('refuses a valibot output without an outputSchema beside it', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: z.object({}), output: v.object({ a: v.string() }) })
      book() {
        return { a: 'x' };
      }
    }
    await expect(appWith(Tools)).rejects.toThrow(/"book" \(Tools\.book\): its output .* set outputSchema beside it/);
  });

  it('refuses an input that is not an object schema', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: z.string() })
      echo() {
        return 'ok';
      }
    }
    await expect(appWith(Tools)).rejects.toThrow(
      /MCP tool "echo" \(Tools\.echo\): its input must describe an object .* derived type "string"/,
    );
  });

  it('refuses an output zod cannot express as JSON Schema, passing on what zod said', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: z.object({}), output: z.object({ at: z.date() }) })
      when() {
        return { at: new Date(0) };
      }
    }
    await expect(appWith(Tools)).rejects.toThrow(
      /MCP tool "when" \(Tools\.when\): zod could not turn its output into JSON Schema \(.+\): set outputSchema/,
    );
  });

  it('refuses an input that is not a Standard Schema', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: { type: 'object' } as unknown as StandardSchemaV1 })
      raw() {
        return 'ok';
      }
    }
    await expect(appWith(Tools)).rejects.toThrow(
      'MCP tool "raw" (Tools.raw): input must be a Standard Schema v1 value (zod 4, valibot 1, arktype 2, ...).',
    );
  });

  it('starts with a valibot input and an explicit inputSchema beside it', async () => {
    @Injectable()
    class Tools {
      @McpTool({ description: 'd', input: v.object({ a: v.string() }), inputSchema: { type: 'object' } })
      a() {
        return 'ok';
      }
    }
    await expect(appWith(Tools)).resolves.toBeUndefined();
  });
});
