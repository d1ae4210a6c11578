/**
 * Each page's size as shown (its crop box, else media box, turned by /Rotate): what a
 * viewer and pdf.js report. Packets read it for files known to hold no text tag, where
 * loading pdf.js (~0.4 s of CPU on the first file a process reads) would only give the sizes.
 */
import { loadPdf } from './load.js';
import { frameOfPage } from './page-frame.js';

export async function displayedPageSizes(
  bytes: Uint8Array,
  property = 'pdf',
): Promise<Array<{ width: number; height: number }>> {
  const doc = await loadPdf(bytes, property);
  return doc.getPages().map((page) => {
    const { width, height } = frameOfPage(page);
    return { width, height };
  });
}
