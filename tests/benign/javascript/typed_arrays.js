const f=new Float64Array([1.5,2.5]);const u=new Uint8Array(f.buffer);if(u.length!==16||f[1]!==2.5) throw new Error('typed');
console.log('OK');
