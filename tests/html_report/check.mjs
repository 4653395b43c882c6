// Opens the HTML report of `dynalint simulate --format html` from disk in headless
// Chromium for tests/html_report.rs, reads what it shows, types in its filter box, and
// prints one JSON object: the figures of its cost tables (text and `data-value`), the
// findings, what stays visible after filtering for one table, every request the page
// made other than its own file, and any script error.
//
// Environment: DYNALINT_REPORT (the HTML file), DYNALINT_FILTER (the text to filter
// for), PLAYWRIGHT_CORE (the playwright-core folder), CHROMIUM.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { chromium } = require(process.env.PLAYWRIGHT_CORE);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM,
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
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(60_000);
  const url = pathToFileURL(process.env.DYNALINT_REPORT).href;
  const requests = [];
  const errors = [];
  page.on('request', (r) => { if (r.url() !== url) requests.push(r.url()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url, { waitUntil: 'load' });

  const rows = (table) => page.$$eval(`#${table} tbody tr`, (trs) => trs.map((tr) => {
    const cells = [...tr.querySelectorAll('td')];
    const money = cells.filter((c) => c.classList.contains('num') && c.closest('table').id !== 'read-heat');
    return {
      name: tr.dataset.table ?? tr.dataset.pattern ?? cells[0].innerText,
      cells: cells.map((c) => c.innerText.trim()),
      values: cells.map((c) => (c.dataset.value === undefined ? null : Number(c.dataset.value))),
      visible: tr.offsetParent !== null,
    };
  }));
  const before = {
    title: await page.title(),
    totals: await page.$eval('#totals', (e) => ({
      text: e.innerText,
      onDemand: Number(e.dataset.onDemand),
      provisioned: Number(e.dataset.provisioned),
    })),
    tables: await rows('table-costs'),
    patterns: await rows('pattern-costs'),
    readHeat: await rows('read-heat'),
    findings: await page.$$eval('.finding', (fs) => fs.map((f) => ({
      rule: f.dataset.rule,
      file: f.dataset.file,
      line: Number(f.dataset.line),
      marked: f.querySelector('pre.src .mark')?.innerText ?? null,
      cost: f.querySelector('.cost')?.innerText ?? null,
    }))),
    detailsOpen: await page.$$eval('details', (ds) => ds.filter((d) => d.open).length),
    details: await page.$$eval('details', (ds) => ds.length),
    scrollHeight: await page.evaluate(() => document.documentElement.scrollHeight),
  };
  await page.fill('#filter', process.env.DYNALINT_FILTER);
  const after = {
    tables: (await rows('table-costs')).filter((r) => r.visible).map((r) => r.name),
    openDetails: await page.$$eval('details', (ds) => ds.filter((d) => d.open && d.offsetParent !== null).map((d) => d.id)),
    visibleDetails: await page.$$eval('details', (ds) => ds.filter((d) => d.offsetParent !== null).map((d) => d.id)),
  };
  console.log(JSON.stringify({ before, after, requests, errors }));
} finally {
  await browser.close();
}
