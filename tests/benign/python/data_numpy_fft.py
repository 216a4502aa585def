import numpy as np
t = np.linspace(0, 1, 1024, endpoint=False)
sig = np.sin(2 * np.pi * 50 * t) + 0.5 * np.sin(2 * np.pi * 120 * t)
spec = np.abs(np.fft.rfft(sig))
peaks = sorted(np.argsort(spec)[-2:])
assert peaks == [50, 120]
assert np.allclose(np.fft.irfft(np.fft.rfft(sig)), sig)
print('OK')
