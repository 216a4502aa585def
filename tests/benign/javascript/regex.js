const m=[...'a@x.com b@y.com'.matchAll(/(\w+)@(\w+)\.com/g)].map(x=>x[1]+x[2]);
if (m.join()!=='ax,by') throw new Error(m);
console.log('OK');
