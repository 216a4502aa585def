const fs=require('fs');fs.mkdirSync('/tmp/a/b',{recursive:true});fs.writeFileSync('/tmp/a/b/t.txt','hello');
fs.renameSync('/tmp/a/b/t.txt','/tmp/a/t2.txt');if(fs.readFileSync('/tmp/a/t2.txt','utf8')!=='hello') throw new Error('fs');
console.log('OK');
