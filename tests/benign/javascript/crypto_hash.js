const c=require('crypto');
if(!c.createHash('sha256').update('abc').digest('hex').startsWith('ba7816bf')) throw new Error('hash');
console.log('OK');
