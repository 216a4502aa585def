import os
import matplotlib.pyplot as plt
plt.plot([1, 2, 3], [4, 1, 9])
plt.title('shown')
plt.show()
plt.hist([1, 1, 2, 3, 3, 3])
plt.show()
assert open('figure-1.png', 'rb').read(8) == b'\x89PNG\r\n\x1a\n' and os.path.exists('figure-2.png')
assert plt.get_fignums() == []
print('OK')
