const z=require('zlib');const d=Buffer.from('abc'.repeat(10000));
if(!z.gunzipSync(z.gzipSync(d)).equals(d)||!z.inflateSync(z.deflateSync(d)).equals(d)||!z.brotliDecompressSync(z.brotliCompressSync(d)).equals(d)) throw new Error('zlib');
console.log('OK');
