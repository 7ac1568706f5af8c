import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  it('matches simple variables and decodes them', () => {
    const t = new UriTemplate('test://template/{id}/data');
    expect(t.variables).toEqual(['id']);
    expect(t.match('test://template/123/data')).toEqual({ id: '123' });
    expect(t.match('test://template/a%20b/data')).toEqual({ id: 'a b' });
    expect(t.match('test://template/1/2/data')).toBeUndefined();
    expect(t.match('test://template//data')).toBeUndefined();
  });

  it('matches reserved expansions across slashes', () => {
    expect(new UriTemplate('file:///{+path}').match('file:///etc/hosts')).toEqual({ path: 'etc/hosts' });
  });

  it('reads optional query variables', () => {
    const t = new UriTemplate('orders://{id}{?fields,lang}');
    expect(t.variables).toEqual(['id', 'fields', 'lang']);
    expect(t.match('orders://7?lang=fr')).toEqual({ id: '7', lang: 'fr' });
    expect(t.match('orders://7')).toEqual({ id: '7' });
  });

  it('treats regex characters in the literal part literally', () => {
    expect(new UriTemplate('a.b://{x}').match('aXb://1')).toBeUndefined();
  });
});
