/**
 * The XMP metadata packet of a PDF/A file (ISO 19005-2 §6.6): the PDF/A identification (pdfaid) and
 * the document information mirrored in the predefined schemas (dc, xmp, pdf), so no extension schema
 * is needed. Written by hand: the packet is small and its shape fixed.
 */

export interface XmpFields {
  part: 2 | 3;
  conformance: 'B';
  title?: string;
  author?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
  created?: Date;
  modified?: Date;
}

/** XML character data: the five predefined entities, and no control characters XML 1.0 forbids. */
function xml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** An XMP date (ISO 8601, UTC), the same instant as the Info dictionary's `D:…Z` date. */
export function xmpDate(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The packet's bytes (UTF-8), wrapped in the xpacket processing instructions, with room to grow in place. */
export function xmpPacket(f: XmpFields): Uint8Array {
  const lines: string[] = [];
  const simple = (name: string, value: string | undefined) => {
    if (value !== undefined) lines.push(`   <${name}>${xml(value)}</${name}>`);
  };
  const lang = (name: string, value: string | undefined) => {
    if (value !== undefined)
      lines.push(`   <${name}><rdf:Alt><rdf:li xml:lang="x-default">${xml(value)}</rdf:li></rdf:Alt></${name}>`);
  };
  lines.push(`   <pdfaid:part>${f.part}</pdfaid:part>`, `   <pdfaid:conformance>${f.conformance}</pdfaid:conformance>`);
  lang('dc:title', f.title);
  if (f.author !== undefined)
    lines.push(`   <dc:creator><rdf:Seq><rdf:li>${xml(f.author)}</rdf:li></rdf:Seq></dc:creator>`);
  lang('dc:description', f.subject);
  simple('pdf:Keywords', f.keywords);
  simple('pdf:Producer', f.producer);
  simple('xmp:CreatorTool', f.creator);
  simple('xmp:CreateDate', f.created && xmpDate(f.created));
  simple('xmp:ModifyDate', f.modified && xmpDate(f.modified));
  simple('xmp:MetadataDate', (f.modified ?? f.created) && xmpDate((f.modified ?? f.created)!));
  const body = [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '  <rdf:Description rdf:about=""',
    '    xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"',
    '    xmlns:dc="http://purl.org/dc/elements/1.1/"',
    '    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"',
    '    xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    ...lines,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
  ].join('\n');
  // XMP's recommended padding lets an editor rewrite the packet in place.
  const padding = (' '.repeat(99) + '\n').repeat(20);
  return new TextEncoder().encode(`${body}\n${padding}<?xpacket end="w"?>`);
}
