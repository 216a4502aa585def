(async()=>{const s=ms=>new Promise(r=>setTimeout(r,ms));let n=0;for(let i=0;i<5;i++){await s(5);n++;}if(n!==5)throw new Error(n);console.log('OK');})();
