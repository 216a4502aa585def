const d=new Date(Date.UTC(2024,1,28));d.setUTCDate(d.getUTCDate()+1);
if (d.toISOString().slice(0,10)!=='2024-02-29') throw new Error(d);
console.log('OK');
