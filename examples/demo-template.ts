/**
 * The demo's template: a one-page form drawn with pdf-lib (so the repository
 * needs no binary fixture) and the fields placed on it.
 */
import { PDFDocument, StandardFonts, rgb } from '@cantoo/pdf-lib';
import type { TemplateInput } from '../src/index.js';

const H = 792;

export async function demoTemplate(): Promise<TemplateInput> {
  const doc = await PDFDocument.create();
  doc.setTitle('castpress demo form');
  const page = doc.addPage([612, H]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  page.drawText('Application form', { x: 50, y: H - 70, size: 22, font: bold, color: rgb(0.1, 0.1, 0.3) });
  // A label at the top of each field's rect and a rule under its bottom edge.
  const label = (text: string, y: number, height = 20) => {
    page.drawText(text, { x: 50, y: H - y - 14, size: 9, font, color: rgb(0.35, 0.35, 0.45) });
    page.drawLine({
      start: { x: 160, y: H - y - height - 2 },
      end: { x: 560, y: H - y - height - 2 },
      thickness: 0.5,
      color: rgb(0.7, 0.7, 0.8),
    });
  };
  label('Name', 110);
  label('Date of birth', 140);
  label('SSN', 170);
  label('Phone', 200);
  label('Salary', 230);
  label('Address', 260, 40);
  page.drawText('Agree to terms', { x: 50, y: H - 334, size: 9, font, color: rgb(0.35, 0.35, 0.45) });
  page.drawRectangle({ x: 160, y: H - 338, width: 14, height: 14, borderWidth: 0.8, borderColor: rgb(0.3, 0.3, 0.4) });
  label('Notes', 360, 80);

  const r = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });
  return {
    eid: 'demo-application',
    title: 'Demo application',
    pdf: await doc.save(),
    style: { fontSize: 11 },
    fields: [
      { id: 'name', alias: 'name', type: 'fullName', pageNum: 0, rect: r(160, 104, 400, 20) },
      { id: 'dob', alias: 'dateOfBirth', type: 'date', format: 'MM/DD/YYYY', pageNum: 0, rect: r(160, 134, 200, 20) },
      { id: 'ssn', alias: 'ssn', type: 'ssn', pageNum: 0, rect: r(160, 164, 200, 20) },
      { id: 'phone', alias: 'phone', type: 'phone', pageNum: 0, rect: r(160, 194, 200, 20) },
      { id: 'salary', alias: 'salary', type: 'dollar', pageNum: 0, rect: r(160, 224, 200, 20) },
      { id: 'address', alias: 'address', type: 'usAddress', pageNum: 0, rect: r(160, 254, 400, 40) },
      { id: 'agree', alias: 'agree', type: 'checkbox', pageNum: 0, rect: r(160, 324, 14, 14) },
      { id: 'notes', alias: 'notes', type: 'longText', pageNum: 0, rect: r(160, 354, 400, 80) },
      {
        id: 'footer',
        alias: 'footer',
        type: 'shortText',
        pageNum: 0,
        rect: r(400, 740, 160, 16),
        style: { alignment: 'right', fontSize: 8 },
      },
    ],
  };
}
