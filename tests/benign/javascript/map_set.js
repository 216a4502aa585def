const m=new Map([[1,'a']]),s=new Set([1,1,2]);if(m.get(1)!=='a'||s.size!==2) throw new Error('ms');
console.log('OK');
