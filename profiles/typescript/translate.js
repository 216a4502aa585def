// warmbox's TypeScript compile stage: strip the types of SOURCE and write
// CommonJS JavaScript for Node to OUT (both in the working directory).
//
//   node /warmbox/translate.js main.ts .main.js
//
// TypeScript's own compiler (npm's typescript, pinned in package-lock.json)
// in transpile-only mode: one file, no type checking, so a program runs as
// under Node's type stripping, Deno or Bun by default.  Errors that stop the
// translation (syntax) are printed as tsc prints them, and exit 1: the
// sandbox reports compile_error and does not run the program.  The full
// checker costs about a second and a half per request here (docs say the
// measured figures); a program that wants its types checked is not what an
// agent's snippet is.
//
// Loading the compiler (9 MB of JavaScript) is most of the cost: it is
// loaded with V8's code cache, made for this very node binary when the
// image is built (`translate.js --make-cache FILE`): 0.33 s instead of 0.85 s
// for a hello world, measured on the host.  A cache V8 rejects (another
// node) only costs the time it would have saved.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

const compilerFile = path.join(__dirname, 'node_modules', 'typescript', 'lib', 'typescript.js');
const cacheFile = path.join(__dirname, 'typescript.cache');

function loadCompiler(cachedData) {
  const script = new vm.Script(Module.wrap(fs.readFileSync(compilerFile, 'utf8')), {
    filename: compilerFile,
    cachedData,
  });
  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, require, mod, compilerFile, path.dirname(compilerFile));
  return { ts: mod.exports, script };
}

function translate(ts, fileName, text) {
  return ts.transpileModule(text, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      experimentalDecorators: true,
      useDefineForClassFields: true,
      sourceMap: false,
      inlineSourceMap: false,
    },
  });
}

if (process.argv[2] === '--make-cache') {
  // Compile, run a translation (so the functions it needs are compiled
  // too), and keep V8's code for them.
  const { ts, script } = loadCompiler(undefined);
  translate(ts, 'main.ts', 'enum E { A } const x: number = E.A; class C { private y = 1 } console.log(x, new C());');
  fs.writeFileSync(process.argv[3], script.createCachedData());
  process.exit(0);
}

const [source, out] = process.argv.slice(2);
if (!source || !out) {
  process.stderr.write('usage: translate.js SOURCE OUT | --make-cache FILE\n');
  process.exit(2);
}
let cached;
try {
  cached = fs.readFileSync(cacheFile);
} catch (e) {
  cached = undefined;
}
const { ts } = loadCompiler(cached);
const result = translate(ts, source, fs.readFileSync(source, 'utf8'));
const errors = (result.diagnostics || []).filter((d) => d.category === ts.DiagnosticCategory.Error);
for (const d of errors) {
  const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
  if (d.file && d.start !== undefined) {
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    process.stderr.write(`${source}(${line + 1},${character + 1}): error TS${d.code}: ${msg}\n`);
  } else {
    process.stderr.write(`error TS${d.code}: ${msg}\n`);
  }
}
if (errors.length > 0) process.exit(1);
fs.writeFileSync(out, result.outputText, { mode: 0o644 });
