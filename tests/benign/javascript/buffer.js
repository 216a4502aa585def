const b=Buffer.from([0,255,16]);if(b.toString('hex')!=='00ff10'||Buffer.from('AP8Q','base64').compare(b)!==0) throw new Error('buf');
console.log('OK');
