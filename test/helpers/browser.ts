// Debian's chromium under playwright-core, headless, with a fresh profile (--user-data-dir, given
// the way playwright wants it) that close() removes: the one browser launch of the suite.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export interface TestBrowser {
  context: BrowserContext;
  /** Closes the browser and removes its profile; safe to call twice. */
  close(): Promise<void>;
}

export async function launchChromium(viewport?: { width: number; height: number }): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'gw-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: '/usr/bin/chromium',
      headless: true,
      ...(viewport === undefined ? {} : { viewport }),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (err) {
    rmSync(profile, { recursive: true, force: true });
    throw err;
  }
  let closed = false;
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
