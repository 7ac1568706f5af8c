import { type Browser, chromium } from 'playwright-core';

// Debian's chromium (scripts/ensure-test-servers.sh installs it), driven by playwright-core: no
// browser download. Without the background-networking flags it stalls on a closed network.
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A headless Chromium for a suite (start it once per suite). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}
