// Rasterises logo.svg to logo.png (2x, for sharp printing). Run: node assets/make-logo.mjs
import sharp from 'sharp';
import { fileURLToPath } from 'node:url';
const here = (f) => fileURLToPath(new URL(f, import.meta.url));
await sharp(here('./logo.svg'), { density: 144 }).png({ compressionLevel: 9 }).toFile(here('./logo.png'));
