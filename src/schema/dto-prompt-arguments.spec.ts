import { IsEnum, IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { dtoAllowedValues, dtoToPromptArguments } from './dto-prompt-arguments.js';
import { McpProperty } from './mcp-property.decorator.js';

enum Tone {
  Formal = 'formal',
  Casual = 'casual',
}
enum Level {
  Low,
  High,
}

class ReviewPrompt {
  @McpProperty({ title: 'Code', description: 'The code to review' }) @IsString() code!: string;
  @McpProperty({ description: 'Review tone' }) @IsOptional() @IsEnum(Tone) tone?: Tone;
  @IsIn(['en', 'fr']) language = 'en';
  @ValidateIf((o: ReviewPrompt) => o.tone === Tone.Formal) @IsString() audience?: string;
  @IsString() focus!: string;
}

describe('dtoToPromptArguments', () => {
  it('lists the properties in order, with title/description from @McpProperty and required unless optional', () => {
    expect(dtoToPromptArguments(ReviewPrompt)).toEqual([
      { name: 'code', title: 'Code', description: 'The code to review', required: true },
      { name: 'tone', description: 'Review tone', required: false },
      { name: 'language', required: false },
      { name: 'audience', required: false },
      { name: 'focus', required: true },
    ]);
  });

  it('returns a fresh array the caller may change', () => {
    const first = dtoToPromptArguments(ReviewPrompt);
    first.pop();
    expect(dtoToPromptArguments(ReviewPrompt)).toHaveLength(5);
  });

  it('gives no arguments for a class without decorators', () => {
    class Nothing {}
    expect(dtoToPromptArguments(Nothing)).toEqual([]);
  });
});

describe('dtoAllowedValues', () => {
  it('lists @IsIn values and @IsEnum values as strings', () => {
    class Choices {
      @IsEnum(Level) level!: Level;
      @IsIn([1, 2, 3]) stars!: number;
    }
    expect(dtoAllowedValues(ReviewPrompt, 'tone')).toEqual(['formal', 'casual']);
    expect(dtoAllowedValues(ReviewPrompt, 'language')).toEqual(['en', 'fr']);
    expect(dtoAllowedValues(Choices, 'level')).toEqual(['0', '1']);
    expect(dtoAllowedValues(Choices, 'stars')).toEqual(['1', '2', '3']);
  });

  it('intersects @IsIn with @IsEnum and includes { each: true } lists', () => {
    class Combined {
      @IsIn(['formal', 'pirate']) @IsEnum(Tone) tone!: Tone;
      @IsIn(['a', 'b'], { each: true }) letters!: string[];
    }
    expect(dtoAllowedValues(Combined, 'tone')).toEqual(['formal']);
    expect(dtoAllowedValues(Combined, 'letters')).toEqual(['a', 'b']);
  });

  it('is undefined for an unrestricted or unknown property', () => {
    expect(dtoAllowedValues(ReviewPrompt, 'code')).toBeUndefined();
    expect(dtoAllowedValues(ReviewPrompt, 'nope')).toBeUndefined();
  });

  it('returns a copy, so a caller cannot change the cached list', () => {
    dtoAllowedValues(ReviewPrompt, 'tone')?.push('shouting');
    expect(dtoAllowedValues(ReviewPrompt, 'tone')).toEqual(['formal', 'casual']);
  });
});
