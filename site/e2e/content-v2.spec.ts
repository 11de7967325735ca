import {test, expect, type Page} from '@playwright/test';

const PAGES: [string, string][] = [
  ['/docs/v2/authorization', 'Authorization'],
  ['/docs/v2/device_information', 'Device information'],
  ['/docs/v2/measurement', 'Measurement'],
  ['/docs/v2/system', 'System'],
  ['/docs/v2/batteries', 'Batteries'],
  ['/docs/v2/telegram', 'Telegram'],
  ['/docs/v2/websocket', 'WebSocket'],
  ['/docs/v2/error-handling', 'Error handling'],
];

const article = (page: Page) => page.locator('article');

for (const [path, title] of PAGES) {
  test(`${path} shows its title, content and a table of contents`, async ({page}) => {
    await page.goto(path);
    await expect(page.getByRole('heading', {level: 1})).toHaveText(title);
    await expect(article(page).locator('h2').first()).toBeVisible();
    // The table of contents lists the page's h2 and h3 headings, nothing deeper.
    const toc = page.locator('.table-of-contents');
    await expect(toc.locator('a').first()).toBeVisible();
    expect(await article(page).locator('h4, h5, h6').count()).toBe(0);
  });
}

test('authorization walks through pairing with a rendered sequence diagram and copyable requests', async ({page}) => {
  await page.goto('/docs/v2/authorization');
  // Mermaid renders after hydration from its own lazily loaded chunk: allow a busy machine the time.
  await expect(page.locator('.docusaurus-mermaid-container svg')).toBeVisible({timeout: 15_000});
  await expect(page.locator('.docusaurus-mermaid-container')).toContainText('user:creation-not-enabled');
  await expect(page.getByRole('heading', {name: 'Create a user: POST /api/user'})).toBeVisible();
  await expect(article(page)).toContainText('30 seconds');
  const curl = page.locator('pre').filter({hasText: 'Authorization: Bearer $HW_TOKEN'}).first();
  await expect(curl).toContainText('curl --insecure --pinnedpubkey "$HW_PIN"');
  await expect(page.getByRole('heading', {name: 'The HTTPS certificate'})).toBeVisible();
  await expect(article(page)).toContainText('4E:C2:77:E6:20:33:FA:E8');
});

test('measurement shows a field table per device, built from the API description', async ({page}) => {
  await page.goto('/docs/v2/measurement');
  for (const heading of ['P1 Meter fields', 'kWh Meter 1-phase fields', 'kWh Meter 3-phase fields', 'Plug-In Battery fields']) {
    const table = page.locator(`h3:has-text("${heading}") ~ table`).first();
    await expect(table.locator('th').first()).toHaveText('Field');
  }
  const p1 = page.locator('h3:has-text("P1 Meter fields") ~ table').first();
  await expect(p1.getByRole('row', {name: /monthly_power_peak_w/})).toContainText('W');
  const kwh3 = page.locator('h3:has-text("kWh Meter 3-phase fields") ~ table').first();
  await expect(kwh3.getByRole('row', {name: /voltage_l2_v/})).toContainText('V');
  await expect(page.locator('pre').filter({hasText: '"gas_meter"'})).toBeVisible();
});

test('the v2 descriptions are published and linked from the pages', async ({page, request}) => {
  await page.goto('/docs/v2/authorization');
  const link = page.getByRole('link', {name: 'v2.openapi.yaml'}).first();
  await expect(link).toHaveAttribute('href', '/api/v2.openapi.yaml');
  const openapi = await request.get('/api/v2.openapi.yaml');
  expect(openapi.status()).toBe(200);
  expect(await openapi.text()).toMatch(/^openapi: 3\.1\.0/);

  await page.goto('/docs/v2/websocket');
  await expect(page.getByRole('link', {name: 'websocket.asyncapi.yaml'})).toHaveAttribute('href', '/api/websocket.asyncapi.yaml');
  const asyncapi = await request.get('/api/websocket.asyncapi.yaml');
  expect(asyncapi.status()).toBe(200);
  expect(await asyncapi.text()).toMatch(/^asyncapi: 3\.0\.0/);
});

test('websocket shows the handshake, a sequence diagram and the complete example session', async ({page}) => {
  await page.goto('/docs/v2/websocket');
  await expect(page.getByRole('heading', {name: 'Authorize within 40 seconds'})).toBeVisible();
  // Mermaid renders after hydration from its own lazily loaded chunk: allow a busy machine the time.
  await expect(page.locator('.docusaurus-mermaid-container svg')).toBeVisible({timeout: 15_000});
  const session = page.locator('pre').filter({hasText: '← {"type": "authorization_requested"'});
  await expect(session).toContainText('→ {"type": "subscribe", "data": "*"}');
  await expect(page.locator('pre').filter({hasText: "from 'ws'"})).toBeVisible();
});

test('uncertain facts are marked with a caution on the page', async ({page}) => {
  await page.goto('/docs/v2/batteries');
  const caution = page.locator('.theme-admonition-caution').filter({hasText: 'How many modes are there?'});
  await expect(caution).toBeVisible();
  await page.goto('/docs/v2/websocket');
  await expect(page.locator('.theme-admonition-caution').filter({hasText: 'data.message'}).first()).toBeVisible();
});

test('error handling gives every code its own entry in the table of contents', async ({page}) => {
  await page.goto('/docs/v2/error-handling');
  const toc = page.locator('.table-of-contents');
  for (const code of ['user:unauthorized', 'user:creation-not-enabled', 'telegram:no-telegram-received', 'request:unknown-subscription']) {
    await expect(toc.getByRole('link', {name: code, exact: true})).toHaveCount(1);
  }
  await toc.getByRole('link', {name: 'user:unauthorized', exact: true}).click();
  await expect(page).toHaveURL(/#userunauthorized$/);
});


