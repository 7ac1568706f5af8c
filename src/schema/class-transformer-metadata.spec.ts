import { Exclude, Expose, Transform, Type } from 'class-transformer';
import { copiesPlainly } from './class-transformer-metadata.js';

// Pins the one read of class-transformer's metadata storage: if a release moves or renames what
// copiesPlainly reads, these fail (or it answers undefined), and the flat-DTO speed-up must follow.
describe('copiesPlainly (class-transformer metadata)', () => {
  class Plain {
    a!: number;
    b!: string;
  }
  class Typed {
    @Type(() => Plain) inner!: Plain;
  }
  class Transformed {
    @Transform(({ value }) => String(value)) label!: string;
  }
  class Exposed {
    @Expose() a!: number;
  }
  @Exclude()
  class ExcludeAll {
    @Expose() a!: number;
  }

  it('reads the storage the decorators of the public entry write to', () => {
    expect(copiesPlainly(Plain, ['a', 'b'])).toBe(true);
  });

  it('sees @Type, @Transform, @Expose and a class-level strategy', () => {
    expect(copiesPlainly(Typed, ['inner'])).toBe(false);
    expect(copiesPlainly(Transformed, ['label'])).toBe(false);
    expect(copiesPlainly(Exposed, ['a'])).toBe(false);
    expect(copiesPlainly(ExcludeAll, ['a'])).toBe(false);
  });
});
