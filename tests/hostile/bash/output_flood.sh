# Output flood: write 64 KiB chunks to stdout forever.
printf -v kib '%1024s' ''
kib=${kib// /x}
chunk=
for i in {1..64}; do chunk+=$kib; done
while :; do printf '%s' "$chunk"; done
