import asyncio
async def f(x):
    await asyncio.sleep(0.01); return x*2
async def main():
    return await asyncio.gather(*(f(i) for i in range(10)))
assert asyncio.run(main())==[i*2 for i in range(10)]
print('OK')
