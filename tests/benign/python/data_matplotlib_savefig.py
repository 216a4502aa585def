import matplotlib.pyplot as plt
import numpy as np
fig, ax = plt.subplots(figsize=(4, 3))
ax.plot(np.arange(10), np.arange(10) ** 2, label='squares')
ax.bar([1, 2, 3], [3, 1, 2])
ax.set_title('chart'); ax.legend()
fig.savefig('chart.png', dpi=50)
fig.savefig('chart.svg')
data = open('chart.png', 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n' and len(data) > 1000
assert b'<svg' in open('chart.svg', 'rb').read(500)
print('OK')
