let got = 0;
process.on('SIGUSR1', () => { got++; });
process.kill(process.pid, 'SIGUSR1');
setTimeout(() => {
  if (got !== 1) throw new Error('signal');
  if (process.getuid() !== process.geteuid() || !process.cwd() || process.hrtime.bigint() <= 0n) throw new Error('info');
  const u = process.resourceUsage(); if (typeof u.maxRSS !== 'number') throw new Error('rusage');
  const m = process.memoryUsage(); if (m.heapUsed <= 0) throw new Error('mem');
  console.log('OK');
}, 50);
