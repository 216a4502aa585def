from dataclasses import dataclass, field
from typing import List
@dataclass
class P:
    x:int
    tags:List[str]=field(default_factory=list)
assert P(1).tags==[] and P(2,['a']).x==2
print('OK')
