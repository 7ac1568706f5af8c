import { McpErrorCode } from '../../protocol/mcp-error-codes.js';
import { McpError } from '../../protocol/mcp.error.js';
import {
  ElicitationLedgerMismatchException,
  ExpiredRequestStateException,
  InputRequiredException,
  InvalidRequestStateException,
  isInputRequired,
} from './index.js';

describe('MRTR exceptions', () => {
  describe('InputRequiredException', () => {
    const signal = new InputRequiredException({ 'elicit-1': { method: 'roots/list', params: {} } }, [
      { key: 'elicit-1', kind: 'roots', fingerprint: 'f' },
    ]);

    it("carries the round's requests and the ledger to seal", () => {
      expect(signal.inputRequests).toEqual({ 'elicit-1': { method: 'roots/list', params: {} } });
      expect(signal.ledger).toEqual([{ key: 'elicit-1', kind: 'roots', fingerprint: 'f' }]);
      expect(signal).toBeInstanceOf(Error);
      expect(signal).not.toBeInstanceOf(McpError);
      expect(signal.name).toBe('InputRequiredException');
    });

    it('captures no stack frames (it is thrown on every round trip)', () => {
      expect(signal.stack ?? '').not.toMatch(/\n\s+at /);
      expect(Error.stackTraceLimit).toBeGreaterThan(0);
    });

    it('is recognised by isInputRequired, also across package copies', () => {
      expect(isInputRequired(signal)).toBe(true);
      const foreign = Object.create(Error.prototype) as Record<symbol, unknown>;
      foreign[Symbol.for('@mocapi/nestjs/InputRequiredException')] = true;
      expect(isInputRequired(foreign)).toBe(true);
    });

    it.each([
      new Error('x'),
      Object.assign(new Error('x'), { name: 'InputRequiredException' }),
      null,
      undefined,
      'InputRequiredException',
      {},
    ])('does not mistake %p for the signal', (value) => {
      expect(isInputRequired(value)).toBe(false);
    });
  });

  describe('InvalidRequestStateException', () => {
    it('is -32602 with the fixed message, the reason in data and HTTP 400', () => {
      const e = new InvalidRequestStateException('principal_mismatch');
      expect(e).toBeInstanceOf(McpError);
      expect(e.code).toBe(McpErrorCode.InvalidParams);
      expect(e.message).toBe('Invalid or expired requestState');
      expect(e.data).toEqual({ reason: 'principal_mismatch' });
      expect(e.reason).toBe('principal_mismatch');
      expect(e.httpStatus).toBe(400);
      expect(e.name).toBe('InvalidRequestStateException');
    });
  });

  describe('ExpiredRequestStateException', () => {
    it.each(['expired', 'flow_expired'] as const)('is an InvalidRequestStateException with reason %s', (reason) => {
      const e = new ExpiredRequestStateException(reason);
      expect(e).toBeInstanceOf(InvalidRequestStateException);
      expect(e.message).toBe('Invalid or expired requestState');
      expect(e.data).toEqual({ reason });
      expect(e.httpStatus).toBe(400);
      expect(e.name).toBe('ExpiredRequestStateException');
    });
  });

  describe('ElicitationLedgerMismatchException', () => {
    it('names the idempotency contract, the ordinal and the key', () => {
      const e = new ElicitationLedgerMismatchException(3, 'elicit-3');
      expect(e).toBeInstanceOf(McpError);
      expect(e.code).toBe(McpErrorCode.InvalidParams);
      expect(e.message).toMatch(/idempotency contract/);
      expect(e.message).toMatch(/#3/);
      expect(e.message).toMatch(/"elicit-3"/);
      expect(e.message).toMatch(/deterministic/);
      expect(e.data).toEqual({ reason: 'ledger_mismatch', ordinal: 3, key: 'elicit-3' });
      expect(e.name).toBe('ElicitationLedgerMismatchException');
    });
  });
});
