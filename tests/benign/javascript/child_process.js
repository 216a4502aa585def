const cp = require('child_process');
const r = cp.spawnSync(process.execPath, ['-e', 'process.stdin.pipe(process.stdout)'], {input: 'piped'});
if (r.status !== 0 || r.stdout.toString() !== 'piped') throw new Error('spawnSync ' + JSON.stringify(r));
const c = cp.spawn(process.execPath, ['-e', 'process.exit(3)']);
c.on('exit', (code) => { if (code !== 3) throw new Error('exit ' + code); console.log('OK'); });
