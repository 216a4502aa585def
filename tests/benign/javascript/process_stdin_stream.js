let n=0;process.stdin.on('data',c=>n+=c.length);process.stdin.on('end',()=>{if(n!==0)throw new Error(n);console.log('OK');});
