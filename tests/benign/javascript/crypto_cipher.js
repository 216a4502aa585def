const c=require('crypto');const k=c.randomBytes(32),iv=c.randomBytes(12);
const e=c.createCipheriv('aes-256-gcm',k,iv);const ct=Buffer.concat([e.update('secret'),e.final()]);const tag=e.getAuthTag();
const d=c.createDecipheriv('aes-256-gcm',k,iv);d.setAuthTag(tag);
if(Buffer.concat([d.update(ct),d.final()]).toString()!=='secret') throw new Error('gcm');
console.log('OK');
