# Busy loop: spin the CPU forever.
while :; do :; done
