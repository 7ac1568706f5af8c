import { randomBytes } from 'node:crypto';

/**
 * A part of a message already serialized, spliced verbatim into the message's JSON by `toWireJson`
 * and `toWireChunks` (a list page computed once per change of its registry, where serializing
 * hundreds of definitions per request would be most of the request's cost). Anything else that
 * serializes it gets a placeholder string; `value` is the part itself, for readers of the message.
 */
export class SerializedJson {
  readonly json: string;
  /** The JSON as UTF-8, written to a socket as it is: no encoding per response. */
  readonly bytes: Buffer;

  constructor(readonly value: unknown) {
    this.json = JSON.stringify(value);
    this.bytes = Buffer.from(this.json, 'utf8');
  }

  /** Recorded for the splice of the serialization under way; written as a unique placeholder. */
  toJSON(): string {
    (spliced ??= []).push(this);
    return PLACEHOLDER;
  }
}

/** Random per process, so no string a client or handler chose can be taken for it. */
const PLACEHOLDER = `\u0000serialized-json:${randomBytes(12).toString('hex')}`;
const QUOTED_PLACEHOLDER = JSON.stringify(PLACEHOLDER);

/** The parts met by the serialization under way (JSON.stringify is synchronous: one at a time). */
let spliced: SerializedJson[] | undefined;

/** The message's text with each `SerializedJson` cut out of it, and those parts in order. */
function split(message: unknown): { pieces: string[]; parts: SerializedJson[] } | string {
  spliced = undefined;
  const text = JSON.stringify(message);
  // Filled by the toJSON calls the line above made (TypeScript cannot see them).
  const parts = spliced as SerializedJson[] | undefined;
  spliced = undefined;
  return parts === undefined ? text : { pieces: text.split(QUOTED_PLACEHOLDER), parts };
}

/**
 * The message's JSON in pieces: the text around each `SerializedJson`, and the part's bytes in
 * between; just the text when the message has no such part.
 */
export function toWireChunks(message: unknown): string | Array<string | Buffer> {
  const cut = split(message);
  if (typeof cut === 'string') return cut;
  const chunks: Array<string | Buffer> = [cut.pieces[0]!];
  for (let i = 1; i < cut.pieces.length; i++) chunks.push(cut.parts[i - 1]!.bytes, cut.pieces[i]!);
  return chunks;
}

/** `JSON.stringify(message)`, with each `SerializedJson` in it written as its own JSON. */
export function toWireJson(message: unknown): string {
  const cut = split(message);
  if (typeof cut === 'string') return cut;
  let text = cut.pieces[0]!;
  for (let i = 1; i < cut.pieces.length; i++) text += cut.parts[i - 1]!.json + cut.pieces[i]!;
  return text;
}
