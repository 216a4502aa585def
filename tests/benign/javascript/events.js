const E=require('events');const e=new E();let got=0;e.on('x',v=>got+=v);e.emit('x',2);e.emit('x',3);if(got!==5) throw new Error('ev');
console.log('OK');
