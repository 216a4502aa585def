try{null.x}catch(e){if(!(e instanceof TypeError)||!e.stack.includes('main.js'))throw new Error(e.stack);}
console.log('OK');
