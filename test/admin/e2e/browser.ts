// Headless Chromium for the back office's browser tests: Debian's /usr/bin/chromium driven by
// playwright-core (Playwright's own browser download does not work here), axe-core injected into
// the page, and the reason to skip when there is no browser or no build (a failure in CI instead).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { findAdminBuild } from '../../../src/http/admin-ui.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. In CI a reason is a failure. */
export function missingPrerequisite(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
  if (!findAdminBuild()) return 'the back office is not built (npm run build:admin)';
  return undefined;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
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
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; summary?: string }[];
}

/** A violation as axe-core reports it (the part read here). */
interface AxeResult extends Omit<AxeViolation, 'nodes'> {
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's violations on the page as it is now (the context bypasses the page's CSP to inject it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeResult[] }> };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })),
    }));
  });
}

export const isSerious = (violation: AxeViolation) =>
  violation.impact === 'serious' || violation.impact === 'critical';
