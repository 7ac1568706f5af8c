/* The public face of stateless elicitation (MRTR). Engine internals stay private. */
export { ElicitationContext } from './elicitation.context.js';
export {
  InputBatchBuilder,
  PlannedInput,
  type BatchAnswers,
  type ElicitAnswer,
  type InputRequestOptions,
  type UrlElicitAnswer,
} from './input-batch.builder.js';
export type {
  RequestedSchemaBuilder,
  BooleanFieldOptions,
  ChoiceValues,
  ChooseManyOptions,
  ChooseOptions,
  FieldOptions,
  NumberFieldOptions,
  StringFieldFormat,
  StringFieldOptions,
} from '../schema/requested-schema.builder.js';
export * from './exceptions/index.js';
export { McpClock, SystemClock } from './mcp-clock.js';
export { RequestStateCodec } from './request-state.codec.js';
export {
  AesGcmRequestStateCodec,
  type AesGcmRequestStateCodecOptions,
  type RequestStateLogger,
} from './aes-gcm-request-state.codec.js';
export type { LedgerSlot, LedgerSlotKind, RequestBinding, RequestStatePayload } from './request-state.payload.js';
export { McpPrincipalSource } from './mcp-principal.source.js';
