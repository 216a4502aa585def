if(new Intl.NumberFormat('en-US').format(1234567.5)!=='1,234,567.5') throw new Error('intl');
console.log('OK');
