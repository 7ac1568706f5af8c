import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// class-transformer's `main` is its CommonJS build and its `module` field its esm5 build, each
// with its own metadata storage. A bundler that prefers `module` gives the user's `@Type()` the
// esm5 storage, so the schema layer must read nested types through the same door (the package
// root), or it finds none and refuses every nested DTO.
const ENTRY = `
import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { dtoToJsonSchema } from '../../src/schema/dto-json-schema.js';
import { compileDtoValidator } from '../../src/schema/dto-validator.js';

class Guest {
  @IsString() name!: string;
}
class Booking {
  @ValidateNested() @Type(() => Guest) guest!: Guest;
}
class Shout {
  @Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value)) @IsString() word!: string;
}
let out;
try {
  out = {
    schema: dtoToJsonSchema(Booking),
    result: compileDtoValidator(Booking)({ guest: { name: 7 } }),
    flat: compileDtoValidator(Shout)({ word: 'hi' }),
  };
} catch (error) {
  out = { error: String(error) };
}
console.log(JSON.stringify(out));
`;

const here = fileURLToPath(new URL('.', import.meta.url));

describe('nested DTOs in a bundle', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mocapi-bundle-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['module, main', ['module', 'main']],
    ['main', ['main']],
  ])('are read and validated when the bundler resolves class-transformer by %s', async (_label, mainFields) => {
    const bundle = await build({
      stdin: { contents: ENTRY, loader: 'ts', resolveDir: here, sourcefile: 'entry.ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      mainFields,
      write: false,
      metafile: true,
      logLevel: 'silent',
      tsconfigRaw: { compilerOptions: { experimentalDecorators: true, useDefineForClassFields: false } },
    });
    const builds = new Set(
      Object.keys(bundle.metafile.inputs).flatMap((input) => {
        const match = /node_modules\/class-transformer\/([^/]+)\//.exec(input);
        return match ? [match[1]] : [];
      }),
    );
    expect(builds.size).toBe(1);

    const file = join(dir, `bundle-${mainFields.join('-')}.mjs`);
    writeFileSync(file, bundle.outputFiles[0]!.contents);
    const out = JSON.parse(execFileSync(process.execPath, [file], { encoding: 'utf8', timeout: 20_000 })) as unknown;
    expect(out).toEqual({
      schema: {
        type: 'object',
        properties: { guest: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
        required: ['guest'],
      },
      result: { ok: false, violations: ['guest.name: name must be a string'] },
      // A flat DTO with a @Transform: the instance checked is class-transformer's.
      flat: { ok: true, value: { word: 'HI' } },
    });
  });
});
