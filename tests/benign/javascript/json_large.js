const a=Array.from({length:100000},(_, i)=>({i,s:'x'+i}));const s=JSON.stringify(a);if(JSON.parse(s).length!==100000) throw new Error('big');
console.log('OK');
