import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame, Page } from 'playwright-core';
import { AppModule } from '../../sample/app.module.js';
import { BookingService } from '../../sample/booking/booking.service.js';
import { launchChromium } from '../support/chromium.js';
import { ADAPTERS, startApp, type RunningApp } from '../support/start-app.js';
import { buildTestHost, startTestHost, type TestHostServer } from './test-host.server.js';

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const ERAS = [
  { era: '2025', protocolVersion: '2025-11-25', date: '2026-12-30' },
  { era: '2026', protocolVersion: '2026-07-28', date: '2026-12-31' },
] as const;

interface HostReport {
  step: string;
  error?: string;
  protocolVersion?: string;
  serverExtensions?: Record<string, unknown>;
  toolMeta?: Record<string, any>;
  resource?: { mimeType?: string; ui?: Record<string, unknown> };
  csp?: string;
  appInfo?: unknown;
  toolResult?: any;
}

let browser: Browser;
let hostScript: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  hostScript = await buildTestHost();
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

async function hostReport(page: Page): Promise<HostReport> {
  await page.waitForFunction(
    () => {
      const step = (globalThis as { testHost?: { step: string } }).testHost?.step;
      return step === 'result-sent' || step === 'failed';
    },
    null,
    { timeout: 20_000 },
  );
  return page.evaluate(() => (globalThis as unknown as { testHost: HostReport }).testHost);
}

async function viewFrame(page: Page): Promise<Frame> {
  const frame = await (await page.waitForSelector('#view iframe')).contentFrame();
  if (!frame) throw new Error('the view has no frame');
  return frame;
}

describe.each(ADAPTERS)(
  'the sample seating picker in headless Chromium, in a host built from ext-apps, on %s',
  (adapter) => {
    let server: RunningApp;
    let host: TestHostServer;
    beforeAll(async () => {
      server = await startApp(AppModule, adapter);
      host = await startTestHost(server.url, hostScript);
    });
    afterAll(async () => {
      await host?.close();
      await server?.close();
    });

    it.each(ERAS)(
      'era $era: renders find_tables in the app, which books through the bridge',
      async ({ era, protocolVersion, date }) => {
        const context = await browser.newContext({ viewport: { width: 640, height: 560 } });
        const page = await context.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        try {
          host.posts.length = 0;
          const args = { date, partySize: 2 };
          await page.goto(`${host.url}?era=${era}&args=${encodeURIComponent(JSON.stringify(args))}`);
          const report = await hostReport(page);
          expect(report.error).toBeUndefined();

          // The era the client spoke: 2025-11-25 after initialize, or 2026-07-28 on every request.
          expect(report.protocolVersion).toBe(protocolVersion);
          const methods = host.posts.map((p) => p.method);
          if (era === '2025') expect(methods[0]).toBe('initialize');
          else expect(methods).not.toContain('initialize');
          const call = host.posts.find((p) => p.method === 'tools/call')!;
          expect(call.protocolVersionHeader).toBe(protocolVersion);

          // The server declares the extension; the tool is linked; the resource is an app.
          expect(report.serverExtensions).toMatchObject({
            'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
          });
          expect(report.toolMeta?.ui).toEqual({ resourceUri: 'ui://bistro/seating-picker' });
          expect(report.resource).toEqual({ mimeType: 'text/html;profile=mcp-app', ui: { prefersBorder: true } });
          expect(report.csp).toContain("connect-src 'none'");

          // The ui/initialize handshake completed: the bridge knows the app, the app is connected.
          expect(report.appInfo).toEqual({ name: 'bistro-seating-picker', version: '1.0.0' });
          const iframe = await page.$('#view iframe');
          expect(await iframe!.getAttribute('sandbox')).toBe('allow-scripts');
          const frame = await viewFrame(page);
          await frame.waitForSelector('body[data-connected="true"]');

          // The app got the tool's input and its result (the free seatings as buttons).
          expect(JSON.parse((await frame.getAttribute('body', 'data-tool-input'))!)).toEqual(args);
          await frame.waitForSelector('#times button');
          const free = server.app.get(BookingService).availableTimes(date);
          expect(await frame.$$eval('#times button', (buttons) => buttons.map((b) => b.textContent))).toEqual(free);
          expect(await frame.textContent('#request')).toBe(`Free seatings for 2 on ${date}:`);
          expect(report.toolResult?.structuredContent).toEqual({ date, partySize: 2, times: free });

          // The declared CSP applies: the view cannot reach the server (or anything) by itself.
          const violated = await frame.evaluate(
            (url) =>
              new Promise<string>((resolve) => {
                // Runs in the view's frame (this file is type-checked without the DOM types).
                (globalThis as any).document.addEventListener(
                  'securitypolicyviolation',
                  (e: { effectiveDirective: string }) => resolve(e.effectiveDirective),
                  { once: true },
                );
                fetch(url).catch(() => undefined);
              }),
            server.url,
          );
          expect(violated).toBe('connect-src');

          // The app's own tools/call goes through the bridge to the server; its answer shows in the app.
          const before = server.app.get(BookingService).all().length;
          await frame.click('#times button[data-time="19:30"]');
          await frame.fill('#name', 'Grace');
          await frame.fill('#email', 'grace@example.com');
          await frame.click('#book');
          await frame.waitForSelector('#outcome[data-outcome]');
          expect(await frame.getAttribute('#outcome', 'data-outcome')).toBe('booked');
          expect(await frame.textContent('#outcome')).toMatch(
            new RegExp(`^Booked a table for 2 at 19:30 on ${date} under Grace: reference [0-9A-F]{8}\\.$`),
          );
          const bookings = server.app.get(BookingService).all();
          expect(bookings).toHaveLength(before + 1);
          expect(bookings.at(-1)).toMatchObject({ date, time: '19:30', partySize: 2, name: 'Grace' });
          expect(host.posts.filter((p) => p.method === 'tools/call')).toHaveLength(2);

          await page.screenshot({ path: `${ARTIFACTS}seating-picker-${adapter}-${era}.png`, fullPage: true });
          expect(problems).toEqual([]);
        } finally {
          await context.close();
        }
      },
      45_000,
    );
  },
);
