import {test, expect} from '@playwright/test';

test('home page names the API and links to getting started', async ({page}) => {
  await page.goto('/');
  await expect(page.getByRole('heading', {level: 1})).toHaveText('HomeWizard Energy local API');
  await page.getByRole('link', {name: 'Get started'}).click();
  await expect(page).toHaveURL(/\/docs\/getting-started$/);
  await expect(page.getByRole('heading', {level: 1})).toHaveText('Getting started');
});
