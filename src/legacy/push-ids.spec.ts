import { LOCAL_PUSH_NODE, nextPushId, pushNodeOf } from './push-ids.js';

describe('push ids', () => {
  it('name this process as their node, and count up', () => {
    const [first, second] = [nextPushId(), nextPushId()];
    expect(first).not.toBe(second);
    expect(pushNodeOf(first)).toBe(LOCAL_PUSH_NODE);
    expect(pushNodeOf(second)).toBe(LOCAL_PUSH_NODE);
  });

  it('read back another node only from a well-formed id', () => {
    expect(pushNodeOf('mocapi-AbCd_-12-7')).toBe('AbCd_-12');
    for (const id of ['mocapi-short-1', 'mocapi-AbCd_-12-', 'other-AbCd_-12-7', 'mocapi-AbCd_-12-7x', '7']) {
      expect(pushNodeOf(id)).toBeUndefined();
    }
  });
});
