// Drives VS Code (code-server's workbench) in headless Chromium for tests/lsp_vscode.rs:
// opens a file with Quick Open, reads the Problems panel, runs "dynalint: Restart
// Server" from the command palette and reads the Problems panel again. Prints one JSON
// object: { before: [row], after: [row] }, each row the text of one Problems entry.
//
// Environment: DYNALINT_E2E_URL (the workbench with ?folder=), DYNALINT_E2E_FILE (the
// file name to open), DYNALINT_E2E_CODE and DYNALINT_E2E_COUNT (the panel is read once
// that many rows name that rule; scan-in-hot-path and 2 by default),
// DYNALINT_E2E_RESTART (`0`: no restart, `after` is `before`), PLAYWRIGHT_CORE (the
// playwright-core folder), CHROMIUM.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);

const TIMEOUT = 90_000;
const file = process.env.DYNALINT_E2E_FILE;
const code = process.env.DYNALINT_E2E_CODE || 'scan-in-hot-path';
const count = Number(process.env.DYNALINT_E2E_COUNT || '2');
const restart = process.env.DYNALINT_E2E_RESTART !== '0';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
  // Chromium's own background traffic has nowhere to go on a closed network.
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  page.setDefaultTimeout(TIMEOUT);
  await page.goto(process.env.DYNALINT_E2E_URL);
  await page.waitForSelector('.monaco-workbench .part.editor');

  // Quick Open until the file is listed (the workspace is indexed after start-up).
  await retry(async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    await page.waitForSelector('.quick-input-widget', { state: 'visible', timeout: 5000 });
    await page.keyboard.type(file);
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: file })
      .first()
      .waitFor({ timeout: 5000 });
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: file }).waitFor({ timeout: 5000 });
  });

  await page.keyboard.press('Control+Shift+M');
  const before = await problems(page, count);
  let after = before;
  if (restart) {
    await retry(async () => {
      await page.keyboard.press('Escape');
      await page.keyboard.press('Control+Shift+P');
      await page.waitForSelector('.quick-input-widget', { state: 'visible', timeout: 5000 });
      await page.keyboard.type('dynalint: Restart Server');
      await page
        .locator('.quick-input-list .monaco-list-row', { hasText: 'dynalint: Restart Server' })
        .first()
        .waitFor({ timeout: 5000 });
      await page.keyboard.press('Enter');
    });
    // The restarted server publishes again; the test checks the trace for the restart.
    await page.waitForTimeout(1000);
    after = await problems(page, count);
  }
  console.log(JSON.stringify({ before, after }));
} finally {
  await browser.close();
}

/** The Problems panel's rows once `n` of them name the rule `code`. */
async function problems(page, n) {
  const rows = page.locator('.markers-panel .monaco-tl-row');
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const texts = await rows.allInnerTexts();
    if (texts.filter((t) => t.includes(code)).length >= n) {
      return texts;
    }
    if (Date.now() > deadline) {
      throw new Error(`Problems panel after ${TIMEOUT} ms: ${JSON.stringify(texts)}`);
    }
    await page.waitForTimeout(200);
  }
}

async function retry(step) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    try {
      return await step();
    } catch (e) {
      if (Date.now() > deadline) throw e;
    }
  }
}
