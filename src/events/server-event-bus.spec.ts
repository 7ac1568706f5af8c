import { InProcessEventBus } from './in-process-event-bus.js';
import type { McpEvent } from './mcp-event-bus.js';
import { ServerEventBus } from './server-event-bus.js';

/** Events are delivered in a later turn of the event loop. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('ServerEventBus', () => {
  it("marks what a server publishes and gives each server's listeners only its own events", async () => {
    const shared = new InProcessEventBus();
    const open = new ServerEventBus(shared, '/mcp');
    const staff = new ServerEventBus(shared, '/mcp/staff');
    const heard = { open: [] as McpEvent[], staff: [] as McpEvent[], all: [] as McpEvent[] };
    open.subscribe((event) => heard.open.push(event));
    staff.subscribe((event) => heard.staff.push(event));
    shared.subscribe((event) => heard.all.push(event));

    staff.publish({ kind: 'resource_updated', uri: 'bistro://payroll' });
    open.publish({ kind: 'list_changed', list: 'tools' });
    await settle();

    expect(heard.staff).toEqual([{ kind: 'resource_updated', uri: 'bistro://payroll', server: '/mcp/staff' }]);
    expect(heard.open).toEqual([{ kind: 'list_changed', list: 'tools', server: '/mcp' }]);
    expect(heard.all).toHaveLength(2);
  });

  it('delivers unmarked events (from a node that does not mark them) to every server', async () => {
    const shared = new InProcessEventBus();
    const heard: McpEvent[] = [];
    new ServerEventBus(shared, '/mcp').subscribe((event) => heard.push(event));
    new ServerEventBus(shared, '/mcp/staff').subscribe((event) => heard.push(event));
    shared.publish({ kind: 'list_changed', list: 'prompts' });
    await settle();
    expect(heard).toHaveLength(2);
  });
});
