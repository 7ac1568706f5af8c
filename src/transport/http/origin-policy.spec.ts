import { OriginPolicy } from './origin-policy.js';

describe('OriginPolicy.hostAllowed', () => {
  it('judges each Host, including one right after another (the last verdict is remembered)', () => {
    const policy = new OriginPolicy(['api.example.com'], []);
    const hosts: Array<[string | undefined, boolean]> = [
      ['127.0.0.1:3000', true],
      ['127.0.0.1:3000', true],
      ['evil.example', false],
      ['evil.example', false],
      ['API.example.com:443', true],
      ['[::1]:8080', true],
      ['', false],
      [undefined, false],
      ['evil.example', false],
      ['localhost', true],
    ];
    expect(hosts.map(([host]) => policy.hostAllowed(host))).toEqual(hosts.map(([, allowed]) => allowed));
  });

  it("allows any Host with '*'", () => {
    expect(new OriginPolicy(['*'], []).hostAllowed('anything.example')).toBe(true);
  });
});
