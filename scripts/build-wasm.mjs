// Compiles the WebAssembly text modules under src/ (*.wat) into dist/src/ (*.wasm), beside
// the JavaScript that loads them, with wabt (the WebAssembly binary toolkit's own parser).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const wabt = await wabtInit();
const sources = fs.readdirSync(path.join(root, 'src'), { recursive: true }).filter((f) => String(f).endsWith('.wat'));
for (const rel of sources) {
  const from = path.join(root, 'src', String(rel));
  const to = path.join(root, 'dist', 'src', String(rel).replace(/\.wat$/, '.wasm'));
  const module = wabt.parseWat(from, fs.readFileSync(from, 'utf8'), { simd: true, bulk_memory: true });
  try {
    module.validate();
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, module.toBinary({}).buffer);
  } finally {
    module.destroy();
  }
}
