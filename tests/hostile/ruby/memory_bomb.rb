# Memory bomb: allocate (and fill) 10 MB strings forever, keeping every one.
chunks = []
loop { chunks << "x" * 10_000_000 }
