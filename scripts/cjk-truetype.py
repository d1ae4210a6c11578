#!/usr/bin/python3
"""
Writes TrueType-outline (glyf) copies of Debian's Noto Sans CJK SC faces, renamed
"Noto Sans CJK SC TT", for HTML mode: Chromium's PDF backend (Skia) embeds CFF
fonts such as Debian's Noto Sans CJK as Type 3 fonts, glyf fonts as real
CID TrueType subsets. Cubic curves become quadratic within 1 font unit.

  python3 scripts/cjk-truetype.py SOURCE.ttc INDEX STYLE OUT.ttf

Deterministic: the same input gives the same bytes (no timestamp is recalculated).
Noto Sans CJK is under the SIL Open Font License 1.1, whose only reserved font name
is "Source"; the copy keeps the licence and copyright entries of its name table.
"""
import sys
from fontTools.ttLib import TTFont, newTable
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen

FAMILY = "Noto Sans CJK SC TT"


def convert(source: str, index: int, style: str, out: str) -> None:
    font = TTFont(source, fontNumber=index, lazy=False, recalcTimestamp=False)
    glyph_set = font.getGlyphSet()
    order = font.getGlyphOrder()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        # TrueType contours run the other way round from PostScript ones.
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
    # A family of its own, so fontconfig and CSS can tell it from the CFF original.
    name = font["name"]
    postscript = f"NotoSansCJKscTT-{style}"
    for record in list(name.names):
        if record.nameID in (16, 17, 21, 22):
            name.removeNames(nameID=record.nameID)
    for plat, enc, lang in ((3, 1, 0x409), (1, 0, 0)):
        name.setName(FAMILY, 1, plat, enc, lang)
        name.setName(style, 2, plat, enc, lang)
        name.setName(f"{FAMILY} {style}", 4, plat, enc, lang)
        name.setName(postscript, 6, plat, enc, lang)
        name.setName(f"{postscript} (glyf outlines of Noto Sans CJK SC)", 3, plat, enc, lang)
    font.save(out)


if __name__ == "__main__":
    convert(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])
