// Loading the gateway's own WebAssembly modules (compiled from src/**/*.wat at build time by
// scripts/build-wasm.mjs, beside the JavaScript that loads them): one instance per thread, its
// memory that thread's scratch space. Synchronous: a module is a few KiB, compiled once.
import { readFileSync } from 'node:fs';

/** The little of the WebAssembly API used here (this project's TypeScript libs do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The memory export every module here has. */
export interface WasmMemory {
  buffer: ArrayBuffer;
  grow(pages: number): number;
}

/** A WebAssembly page, the unit a memory grows by. */
export const WASM_PAGE_BYTES = 65536;

/** The exports of a new instance of the module at `url` (a `.wasm` file). */
export function instantiate<T>(url: URL): T {
  return new wasm.Instance(new wasm.Module(readFileSync(url))).exports as T;
}
