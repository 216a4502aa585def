const c=require('crypto');if(c.randomUUID().length!==36||c.randomBytes(16).length!==16) throw new Error('rand');
console.log('OK');
