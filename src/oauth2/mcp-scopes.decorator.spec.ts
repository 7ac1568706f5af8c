import { getMcpScopes, McpScopes } from './mcp-scopes.decorator.js';

describe('@McpScopes', () => {
  @McpScopes('orders:read')
  class OrderTools {
    @McpScopes('orders:write')
    @McpScopes('payments:write', 'orders:write')
    place(): void {}

    list(): void {}
  }

  class Unscoped {
    open(): void {}
  }

  class Derived extends OrderTools {}

  it('adds up the class scopes and every decorator on the method, without duplicates', () => {
    expect(getMcpScopes(OrderTools, 'place').sort()).toEqual(['orders:read', 'orders:write', 'payments:write']);
    expect(getMcpScopes(OrderTools, 'list')).toEqual(['orders:read']);
  });

  it('finds nothing on an undecorated handler or an unknown method', () => {
    expect(getMcpScopes(Unscoped, 'open')).toEqual([]);
    expect(getMcpScopes(Unscoped, 'missing')).toEqual([]);
  });

  it('is inherited by subclasses', () => {
    expect(getMcpScopes(Derived, 'place').sort()).toEqual(['orders:read', 'orders:write', 'payments:write']);
  });

  it.each([[[]], [['a b']], [['offline_access']], [['']], [['x"y']]])('refuses %j at decoration time', (scopes) => {
    expect(() => McpScopes(...scopes)).toThrow(/@McpScopes\(\)/);
  });
});
