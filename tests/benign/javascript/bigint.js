const f=n=>n<=1n?1n:n*f(n-1n);
if (f(25n).toString()!=='15511210043330985984000000') throw new Error('bigint');
console.log('OK');
