import { spawn } from "node:child_process";

declare const process: any;

let said = false;

function bomb(): void {
  for (let i = 0; i < 4; i++) {
    try {
      const child = spawn(process.execPath, [process.argv[1]], { detached: true, stdio: "ignore" });
      child.on("error", report);
      child.unref();
    } catch (e) {
      report(e as { code?: string });
    }
  }
  setImmediate(bomb); // let the (asynchronous) spawn errors be reported, then go on forever
}

function report(e: { code?: string }): void {
  if (said) return;
  said = true;
  console.log(e && e.code === "EAGAIN" ? "fork EAGAIN" : "fork other " + (e && e.code));
}

bomb();
