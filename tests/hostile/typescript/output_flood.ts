import { writeSync } from "node:fs";
import { Buffer } from "node:buffer";

const chunk: Buffer = Buffer.alloc(64 * 1024, "x");
for (;;) {
  try {
    writeSync(1, chunk);
  } catch (e) {
    if ((e as { code?: string }).code !== "EAGAIN") throw e; // a non-blocking pipe that is full: try again
  }
}
