import type { McpAppBundleOptions } from '../../src/apps/index.js';

/** The URI find_tables links to: hosts that render MCP Apps show its result in this view. */
export const SEATING_PICKER_URI = 'ui://bistro/seating-picker';

/**
 * The seating picker, served from the single HTML file `npm run build:apps` writes (it runs before
 * `npm start`, `npm test` and the demo). Scripts and styles are inline: hosts render the view in a
 * sandbox where relative URLs do not resolve. It talks to the server only through the host
 * (`callServerTool`), so it declares no CSP origins and runs under the hosts' strict default.
 */
export const SEATING_PICKER_APP: McpAppBundleOptions = {
  uri: SEATING_PICKER_URI,
  name: 'seating-picker',
  title: 'Seating picker',
  description: 'Shows the free seatings of a day and books the one the guest picks',
  bundle: 'sample/apps/dist/seating-picker.html',
  prefersBorder: true,
};
