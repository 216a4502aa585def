if (Math.abs(Math.sqrt(2)**2-2)>1e-12 || Math.hypot(3,4)!==5) throw new Error('math');
console.log('OK');
