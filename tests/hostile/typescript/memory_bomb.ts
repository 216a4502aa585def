import { Buffer } from "node:buffer";

const kept: Buffer[] = [];
for (;;) {
  const chunk = Buffer.alloc(10 * 1024 * 1024, 0x61); // filled, so every page is touched
  kept.push(chunk);
}
