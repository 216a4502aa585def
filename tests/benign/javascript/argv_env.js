if(process.argv[1]!=='main.js'||process.env.HOME!=='/tmp') throw new Error(process.argv[1]);
console.log('OK');
