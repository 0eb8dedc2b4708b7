/** The dashboard's sign-in as a merchant does it: the secret key typed into the page, then signed in. */
import { expect, type Page } from '@playwright/test';

export async function signInToDashboard(page: Page, baseUrl: string, secretKey: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard`);
  await page.getByLabel('Secret key').fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}
