// The benchmarks' browser sign-in: a seeded user through the login page (password = account, as the
// seed sets them), against a server that exposes the captcha answer (ZS_TEST_CAPTCHA=expose or
// exposeCaptchaCode).
import type { Page } from 'playwright-core';

export async function signInAs(page: Page, base: string, account: string) {
  const captcha = page.waitForResponse((r) => r.url().includes('/oauth/captcha') && r.status() === 200);
  await page.goto(`${base}/login`);
  const code = (await captcha).headers()['x-test-captcha-code'];
  await page.locator('input[autocomplete="username"]').fill(account);
  await page.locator('input[autocomplete="current-password"]').fill(account);
  await page.locator('input[maxlength="5"]').fill(code);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/wel/index');
}

export const signInAsAdmin = (page: Page, base: string) => signInAs(page, base, 'admin');
