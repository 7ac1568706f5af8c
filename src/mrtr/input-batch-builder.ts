import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitResult,
  InputResponse,
  ListRootsResult,
} from '../protocol/wire-types.js';
import { RequestedSchemaBuilder } from '../schema/requested-schema-builder.js';
import type { ChangedQuestionPolicy, PendingInput } from './replay-session.js';

/** The answer to a form elicitation: typed content when the user accepted, nothing otherwise. */
export type ElicitAnswer<T> = { action: 'accept'; content: T } | { action: 'decline' | 'cancel'; content?: undefined };

/** The answer to a URL elicitation: `accept` only means the user agreed to open the URL. */
export interface UrlElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
}

/** Options of one input request. */
export interface InputRequestOptions {
  /** Names the request on the wire; default `elicit-<ordinal>` / `sample-<ordinal>` / `roots-<ordinal>`. */
  key?: string;
  /**
   * When this question differs on a retry from the one the client was asked at this position
   * (say, the choices offered changed meanwhile): `'reask'` drops the answers from here on and asks
   * the new question; `'fail'` ends the call with `ElicitationLedgerMismatchException`. Default:
   * `McpModule.forRoot({ mrtr: { whenChanged } })`, itself `'fail'`.
   */
  whenChanged?: ChangedQuestionPolicy;
}

/** The parts of the options every kind of input request shares. */
function pending(options: InputRequestOptions | undefined, request: PendingInput['request']): PendingInput {
  // A literal, not a spread of the options: a spread amid members costs Node 20 some 0.5 us.
  return { key: options?.key, whenChanged: options?.whenChanged, request };
}

/** One question of a batch, and how its wire answer becomes the typed answer `A`. */
export class PlannedInput<A> {
  /** @internal Built by {@link InputBatchBuilder}. */
  constructor(
    /** @internal The question. */
    readonly input: PendingInput,
    /** @internal Its wire answer as the typed answer. */
    readonly read: (answer: InputResponse) => A,
  ) {}
}

/** The typed answers of a batch, position by position. */
export type BatchAnswers<P extends readonly PlannedInput<unknown>[]> = {
  -readonly [I in keyof P]: P[I] extends PlannedInput<infer A> ? A : never;
};

/**
 * Plans the questions of one round: `ctx.batch((b) => [b.elicit(...), b.sample(...), b.listRoots()])`.
 * Nothing is asked until the batch is handed back to `ElicitationContext.batch`.
 *
 * @publicApi
 */
export class InputBatchBuilder {
  /** A form elicitation whose schema and answer type come from the builder callback. */
  elicit<T>(
    message: string,
    schema: (builder: RequestedSchemaBuilder) => RequestedSchemaBuilder<T>,
    options?: InputRequestOptions,
  ): PlannedInput<ElicitAnswer<T>> {
    if (typeof message !== 'string') throw new TypeError('elicit(message, ...): message must be a string');
    const built = schema(new RequestedSchemaBuilder());
    if (!(built instanceof RequestedSchemaBuilder)) {
      throw new TypeError('elicit(message, schema): the schema callback must return the builder it was given');
    }
    return new PlannedInput(
      pending(options, {
        method: 'elicitation/create',
        params: { mode: 'form', message, requestedSchema: built.build() },
      }),
      (answer) => {
        const { action, content } = answer as ElicitResult;
        return (action === 'accept' ? { action, content: content as T } : { action }) as ElicitAnswer<T>;
      },
    );
  }

  /** A URL-mode elicitation (for what must not go through a form: credentials, payments, OAuth). */
  elicitUrl(message: string, url: string, options?: InputRequestOptions): PlannedInput<UrlElicitAnswer> {
    if (typeof message !== 'string') throw new TypeError('elicitUrl(message, url): message must be a string');
    if (typeof url !== 'string' || !URL.canParse(url))
      throw new TypeError('elicitUrl(message, url): url must be an absolute URL');
    return new PlannedInput(
      pending(options, { method: 'elicitation/create', params: { mode: 'url', message, url } }),
      (answer) => ({ action: (answer as ElicitResult).action }),
    );
  }

  /** A sampling request (deprecated by the spec, still allowed). */
  sample(params: CreateMessageRequestParams, options?: InputRequestOptions): PlannedInput<CreateMessageResult> {
    return new PlannedInput(
      pending(options, { method: 'sampling/createMessage', params }),
      (answer) => answer as CreateMessageResult,
    );
  }

  /** A roots request (deprecated by the spec, still allowed). */
  listRoots(options?: InputRequestOptions): PlannedInput<ListRootsResult> {
    return new PlannedInput(
      pending(options, { method: 'roots/list', params: {} }),
      (answer) => answer as ListRootsResult,
    );
  }
}
