function*g(){let i=0;while(i<3)yield i++}if([...g()].join()!=='0,1,2') throw new Error('gen');
console.log('OK');
