const d={a:[1,2,{b:null}],c:'é'};
if (JSON.stringify(JSON.parse(JSON.stringify(d)))!==JSON.stringify(d)) throw new Error('json');
console.log('OK');
