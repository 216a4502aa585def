Promise.all([1,2,3].map(x=>new Promise(r=>setTimeout(()=>r(x*2),10)))).then(v=>{if(v.join()!=='2,4,6')throw new Error(v);console.log('OK');});
