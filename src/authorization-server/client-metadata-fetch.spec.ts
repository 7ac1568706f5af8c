import { assertPublicHost, isSpecialUseAddress } from './client-metadata-fetch.js';

describe('isSpecialUseAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
  ])('%s is special-use', (address) => expect(isSpecialUseAddress(address)).toBe(true));

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) =>
    expect(isSpecialUseAddress(address)).toBe(false),
  );
});

describe('assertPublicHost', () => {
  it('refuses loopback names and literals', async () => {
    await expect(assertPublicHost(new URL('https://127.0.0.1/client.json'))).rejects.toThrow(/private/);
    await expect(assertPublicHost(new URL('https://[::1]/client.json'))).rejects.toThrow(/private/);
    await expect(assertPublicHost(new URL('https://localhost/client.json'))).rejects.toThrow(/private/);
  });

  it('lets a public address literal through', async () => {
    await expect(assertPublicHost(new URL('https://93.184.215.14/client.json'))).resolves.toBeUndefined();
  });
});
