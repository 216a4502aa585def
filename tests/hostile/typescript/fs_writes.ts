import * as fs from "node:fs";

for (const p of ["/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"]) {
  try {
    fs.writeFileSync(p, "pwned\n");
    console.log(`${p} WRITTEN`);
  } catch {
    console.log(`${p} refused`);
  }
}
console.log("done");
