/**
 * What validating one tool's arguments costs as the catalog grows, in process, through the module's
 * own validator (`compileDtoValidator`, as `tools/call` runs it). The application's other DTO
 * classes are simulated by filler classes of five class-validator rules each (as in the bench app),
 * each compiled as a tool's DTO is at startup, added until the process holds 10, 500 and 2,000 of
 * them. Three argument DTOs are timed at each
 * size:
 *
 *   flat       @IsString() and @IsInt() only: checked without class-validator per call
 *   email      @IsEmail() beside @IsString(): validated by class-validator's validateSync
 *   nested     a @ValidateNested() child DTO: validateSync, one level down
 *
 * class-validator looks up a validator's constraint instance by a linear search over every
 * constraint class made in the process (one per decorator use), and each class's rules by a walk
 * over every validated class (for inherited rules), so its per-call cost grows with the catalog.
 * Reported, never asserted.
 *
 *   node bench/out/build/bench/dto-validation.micro.js [--smoke]
 */
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsEmail, IsInt, IsString, ValidateNested } from 'class-validator';
import { pathToFileURL } from 'node:url';

import { compileDtoValidator } from '../src/schema/dto-validator.js';

export interface DtoValidationRow {
  readonly classes: number;
  readonly dto: 'flat' | 'email' | 'nested';
  readonly us: number;
}

class FlatArgs {
  @IsString() name!: string;
  @IsInt() count!: number;
}

class EmailArgs {
  @IsEmail() email!: string;
  @IsString() name!: string;
}

class Address {
  @IsString() city!: string;
}

class NestedArgs {
  @IsString() name!: string;
  @ValidateNested() @Type(() => Address) address!: Address;
}

const CASES = [
  { dto: 'flat', cls: FlatArgs, args: { name: 'x', count: 2 } },
  { dto: 'email', cls: EmailArgs, args: { email: 'ada@example.com', name: 'x' } },
  { dto: 'nested', cls: NestedArgs, args: { name: 'x', address: { city: 'Porto' } } },
] as const;

/** The argument classes above count as validated classes too. */
const OWN_CLASSES = 4;

let fillers = 0;

/** Adds filler DTO classes (five rules each) until the process has `total` validated classes. */
function growTo(total: number): void {
  for (; fillers + OWN_CLASSES < total; fillers++) {
    const dto = class {};
    for (let field = 0; field < 5; field++) (field % 2 ? IsString() : IsInt())(dto.prototype, `f${field}`);
    // As the server does at startup for every tool's DTO.
    compileDtoValidator(dto);
  }
}

function timed(count: number, op: () => unknown): number {
  for (let i = 0; i < count; i++) op();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) op();
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

export function runDtoValidationMicro(smoke = false): DtoValidationRow[] {
  const rows: DtoValidationRow[] = [];
  for (const classes of [10, 500, 2000]) {
    growTo(classes);
    for (const { dto, cls, args } of CASES) {
      const validate = compileDtoValidator(cls);
      const outcome = validate(args);
      if (!outcome.ok) throw new Error(`${dto}: valid arguments refused: ${outcome.violations.join('; ')}`);
      rows.push({ classes, dto, us: timed(smoke ? 500 : 20_000, () => validate(args)) });
    }
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = runDtoValidationMicro(process.argv.includes('--smoke'));
  console.log(`Node ${process.version}: one validation of a tool's arguments, us`);
  console.log('validated classes   flat     email    nested');
  for (const classes of [10, 500, 2000]) {
    const us = (dto: string) =>
      rows
        .find((r) => r.classes === classes && r.dto === dto)!
        .us.toFixed(1)
        .padStart(8);
    console.log(`${String(classes).padStart(17)} ${us('flat')} ${us('email')} ${us('nested')}`);
  }
}
