import {test, expect} from '@playwright/test';

test('the v1 pages link to the OpenAPI description, and the link downloads a valid 3.1 document', async ({page, request}) => {
  await page.goto('/docs/v1/measurement');
  const link = page.getByRole('link', {name: 'v1.openapi.yaml'}).first();
  await expect(link).toHaveAttribute('href', '/api/v1.openapi.yaml');
  const response = await request.get('/api/v1.openapi.yaml');
  expect(response.status()).toBe(200);
  const text = await response.text();
  expect(text).toMatch(/^openapi: 3\.1\.0$/m);
  expect(text).toContain('/api/v1/data:');
});

test('field tables generated from the description show name, type, unit and allowed values', async ({page}) => {
  await page.goto('/docs/v1/state');
  const row = page.getByRole('row').filter({has: page.getByRole('cell', {name: 'brightness', exact: true})}).first();
  await expect(row.getByRole('cell')).toHaveText(['brightness', 'number (always present)', '–', /LED ring/, '0 to 255']);
  await page.goto('/docs/v1/measurement');
  const peak = page.getByRole('row').filter({has: page.getByRole('cell', {name: 'montly_power_peak_w', exact: true})});
  await expect(peak.getByRole('cell').nth(2)).toHaveText('W');
});

test('json examples are highlighted code blocks', async ({page}) => {
  await page.goto('/docs/v1/state');
  const block = page.locator('pre.language-json').first();
  await expect(block).toContainText('"switch_lock"');
  await expect(block.locator('.token.property').first()).toBeVisible();
  const colors = await block.locator('.token').evaluateAll((els) => [...new Set(els.map((el) => getComputedStyle(el).color))]);
  expect(colors.length).toBeGreaterThanOrEqual(3);
});

test('the discovery page renders its mermaid diagram as SVG', async ({page}) => {
  await page.goto('/docs/discovery');
  const svg = page.locator('.docusaurus-mermaid-container svg');
  await expect(svg).toBeVisible({timeout: 15_000});
  await expect(svg).toContainText('Browse _homewizard._tcp and _hwenergy._tcp');
});

test('the table of contents of an endpoint page lists its sections', async ({page}) => {
  await page.goto('/docs/v1/error-handling');
  const toc = page.locator('.table-of-contents').first();
  await expect(toc.getByRole('link', {name: 'Error ids'})).toBeVisible();
  await expect(toc.getByRole('link', {name: '202: API_DISABLED'})).toBeVisible();
});

