/**
 * The dashboard as a person drives it in Chromium (test/dashboard-browser.test.ts): signing in, uploading,
 * drawing with the mouse, tabbing with the keyboard, waiting for the save, reading the working version
 * back through the app's own session; and the flat form the tests upload.
 */
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { axeViolations } from './axe.js';

/** A flat form (no AcroForm): labels with an underline, a box and two check boxes, as a person would fill them. */
export async function makeFlatForm(file: string): Promise<void> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Membership application', { x: 72, y: 730, size: 18, font });
  page.drawText('Full name', { x: 72, y: 690, size: 11, font });
  page.drawLine({ start: { x: 140, y: 688 }, end: { x: 420, y: 688 }, thickness: 1, color: rgb(0, 0, 0) });
  page.drawText('City', { x: 72, y: 650, size: 11, font });
  page.drawRectangle({ x: 140, y: 642, width: 200, height: 22, borderWidth: 1, borderColor: rgb(0, 0, 0) });
  for (const [i, label] of ['Yes', 'No'].entries()) {
    page.drawRectangle({ x: 140 + i * 80, y: 600, width: 12, height: 12, borderWidth: 1, borderColor: rgb(0, 0, 0) });
    page.drawText(label, { x: 158 + i * 80, y: 602, size: 11, font });
  }
  page.drawText('Signature', { x: 72, y: 420, size: 11, font });
  page.drawText('Date', { x: 360, y: 420, size: 11, font });
  await writeFile(file, await doc.save());
}

export async function expectNoAxeViolations(page: Page, where: string): Promise<void> {
  expect(await axeViolations(page), where).toEqual([]);
}

export async function signIn(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/dashboard`);
  await page.getByLabel('API key').waitFor();
  await expectNoAxeViolations(page, 'sign-in');
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
}

export async function upload(page: Page, file: string, name: string): Promise<string> {
  await page.getByLabel('PDF or DOCX file').setInputFiles(file);
  await page.getByLabel('Name (optional)').fill(name);
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByRole('heading', { level: 1, name: `Edit ${name}` }).waitFor();
  await page.locator('canvas.pdf-page').first().waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
}

export async function waitSaved(page: Page): Promise<void> {
  // Effects run after the next frame: only then has an edit just made turned the state to "Unsaved changes".
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
  await page.locator('.save-state', { hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
}

/** The working version as the server holds it (through the app's own session). */
export async function working(page: Page, eid: string) {
  return page.evaluate(async (id) => {
    const res = await fetch(`/dashboard/api/templates/${encodeURIComponent(id)}`);
    return (await res.json()) as {
      working: {
        fields: Array<{
          id: string;
          type: string;
          alias?: string;
          rect: { x: number; y: number; width: number; height: number };
        }>;
      };
    };
  }, eid);
}

/** Drags with the mouse on page 1 from `a` to `b`, in CSS px from the page's top-left. */
export async function dragOnPage(page: Page, a: [number, number], b: [number, number]): Promise<void> {
  const box = (await page.locator('.page').first().boundingBox())!;
  await page.mouse.move(box.x + a[0], box.y + a[1]);
  await page.mouse.down();
  await page.mouse.move(box.x + (a[0] + b[0]) / 2, box.y + (a[1] + b[1]) / 2, { steps: 4 });
  await page.mouse.move(box.x + b[0], box.y + b[1], { steps: 4 });
  await page.mouse.up();
}

/** Draws a field of `type` with the mouse; the id of the new field (drawn, it is the one selected). */
export async function drawField(page: Page, type: string, a: [number, number], b: [number, number]): Promise<string> {
  const before = await page.locator('.field-box').count();
  await page.getByLabel('Field type').selectOption(type);
  await page.getByRole('button', { name: 'Draw on page' }).click();
  await dragOnPage(page, a, b);
  await expect.poll(() => page.locator('.field-box').count()).toBe(before + 1);
  const id = await page.locator('.field-box.selected').getAttribute('data-field-id');
  if (!id) throw new Error('the drawn field is not selected');
  return id;
}

/** Tabs (keyboard only) until `test` holds for the focused element; fails after `max` presses. */
export async function tabTo(page: Page, test: string, max = 200): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate(test)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${test}`);
}
