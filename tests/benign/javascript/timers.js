const t0=Date.now();setTimeout(()=>{if(Date.now()-t0<40)throw new Error('early');setImmediate(()=>process.nextTick(()=>console.log('OK')));},50);
