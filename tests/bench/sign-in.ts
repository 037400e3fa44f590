// The benchmarks' browser sign-in: the administrator through the login page, against a server that
// exposes the captcha answer (ZS_TEST_CAPTCHA=expose or exposeCaptchaCode).
import type { Page } from 'playwright-core';

export async function signInAsAdmin(page: Page, base: string) {
  const captcha = page.waitForResponse((r) => r.url().includes('/oauth/captcha') && r.status() === 200);
  await page.goto(`${base}/login`);
  const code = (await captcha).headers()['x-test-captcha-code'];
  await page.locator('input[autocomplete="username"]').fill('admin');
  await page.locator('input[autocomplete="current-password"]').fill('admin');
  await page.locator('input[maxlength="5"]').fill(code);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL('**/wel/index');
}
