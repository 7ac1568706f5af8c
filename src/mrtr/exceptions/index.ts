export * from './input-required.exception.js';
export * from './invalid-request-state.exception.js';
export * from './expired-request-state.exception.js';
export * from './elicitation-ledger-mismatch.exception.js';
export * from './request-state-too-large.exception.js';
