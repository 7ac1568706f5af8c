import { Transform, Type } from 'class-transformer';
import { IsString, ValidateNested } from 'class-validator';
import { declaredNestedType } from './dto-nested-type.js';

class Guest {
  @IsString() name!: string;
}

class VipGuest extends Guest {
  @IsString() lounge!: string;
}

class Party {
  @ValidateNested() @Type(() => Guest) host!: Guest;
  @ValidateNested({ each: true }) @Type(() => Guest) guests!: Guest[];
  @ValidateNested({ each: true }) @Type(() => Guest) unique!: Set<Guest>;
  @ValidateNested({ each: true }) @Type(() => Guest) byName!: Map<string, Guest>;
  @ValidateNested() untyped!: Guest;
  @IsString() label!: string;
}

class Gala extends Party {
  @ValidateNested() @Type(() => VipGuest) vip!: VipGuest;
}

describe('declaredNestedType', () => {
  it.each(['host', 'guests', 'unique', 'byName'])('names the @Type() class of %s, whatever holds it', (property) => {
    expect(declaredNestedType(Party, property)).toBe(Guest);
  });

  it('finds the @Type() of an inherited property, and of the subclass own one', () => {
    expect(declaredNestedType(Gala, 'host')).toBe(Guest);
    expect(declaredNestedType(Gala, 'vip')).toBe(VipGuest);
  });

  it.each(['untyped', 'label', 'absent'])('answers undefined for %s, which has no @Type()', (property) => {
    expect(declaredNestedType(Party, property)).toBeUndefined();
  });

  it('answers undefined for a type that is not a class of objects, or a type function that throws', () => {
    class Odd {
      @Type(() => String) text!: string;
      @Type(() => Object) loose!: object;
      @Type(() => {
        throw new Error('needs a value');
      })
      picky!: Guest;
    }
    expect(declaredNestedType(Odd, 'text')).toBeUndefined();
    expect(declaredNestedType(Odd, 'loose')).toBeUndefined();
    expect(declaredNestedType(Odd, 'picky')).toBeUndefined();
  });

  it('answers the base type of a discriminated property', () => {
    class Seat {
      kind!: string;
    }
    class Booth extends Seat {}
    class Floor {
      @Type(() => Seat, { discriminator: { property: 'kind', subTypes: [{ value: Booth, name: 'booth' }] } })
      seat!: Seat;
    }
    expect(declaredNestedType(Floor, 'seat')).toBe(Seat);
  });

  it('answers what plainToInstance builds, @Transform() included', () => {
    class Wrapped {
      @Type(() => Guest)
      @Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(() => new VipGuest()) : value))
      guest!: Guest;
    }
    expect(declaredNestedType(Wrapped, 'guest')).toBe(VipGuest);
  });
});
