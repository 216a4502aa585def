# Output flood: write 64 KiB chunks to stdout forever.
chunk = "x" * 65_536
loop { $stdout.write(chunk) }
