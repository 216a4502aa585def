declare const process: any;

try {
  process.kill(-1, "SIGKILL");
} catch (e) {
  console.log("kill -1: " + ((e as { code?: string }).code ?? String(e)));
}
console.log("still here");
