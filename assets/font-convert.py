# The converter `WebFontCache` runs (`python3 -c`): a font on stdin, its TrueType-outline (glyf) copy on
# stdout. scripts/generate-page-code.mjs turns it into a string module (generated/font-convert-py.js), so the
# compiled package and the bundle carry it without an asset lookup. The same conversion as
# scripts/cjk-truetype.py (the Noto CJK copies), without the renaming: the author's @font-face rule names the family, and the PDF keeps the font's own PostScript name.
# Cubic curves become quadratic within 1 font unit (fontTools' cu2qu); TrueType contours run the other way
# round from PostScript ones. CFF hints are dropped (the copy has no instructions). Deterministic: no
# timestamp is recalculated, so the same input gives the same bytes. WOFF/WOFF2 come out as plain sfnt
# (WOFF2 needs Python's brotli, which Debian's python3-fonttools pulls in).
# Exit 3: nothing to convert (no CFF table) or a variable font (CFF2/fvar: instances are not made here).

import io, sys
from fontTools.ttLib import TTFont, newTable
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

font = TTFont(io.BytesIO(sys.stdin.buffer.read()), lazy=False, recalcTimestamp=False)
if "CFF2" in font or "fvar" in font:
    sys.stderr.write("variable font (CFF2/fvar)\n")
    sys.exit(3)
if "CFF " not in font:
    sys.stderr.write("no CFF table\n")
    sys.exit(3)
glyph_set = font.getGlyphSet()
order = font.getGlyphOrder()
glyf = newTable("glyf")
glyf.glyphOrder = order
glyf.glyphs = {}
for name in order:
    pen = TTGlyphPen(glyph_set)
    glyph_set[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
    glyf.glyphs[name] = pen.glyph()
font["glyf"] = glyf
font["loca"] = newTable("loca")
for tag in ("CFF ", "VORG"):
    if tag in font:
        del font[tag]
maxp = font["maxp"]
maxp.tableVersion = 0x00010000
for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
             "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxComponentDepth"):
    setattr(maxp, attr, 0)
maxp.maxZones = 1
font["head"].glyphDataFormat = 0
font["post"].formatType = 3.0
font.sfntVersion = "\x00\x01\x00\x00"
font.flavor = None
out = io.BytesIO()
font.save(out)
sys.stdout.buffer.write(out.getvalue())
