# Busy loop: spin the CPU forever.
loop {}
