const p=require('path'),u=require('util');if(p.join('/a','../b')!=='/b'||u.format('%s=%d','x',1)!=='x=1') throw new Error('pu');
console.log('OK');
