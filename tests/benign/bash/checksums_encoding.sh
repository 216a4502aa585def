# Checksums and encodings: sha256sum/md5sum/sha1sum (-c), cksum, base64/base32, od, hex with printf.
fail() { echo "FAIL: $*" >&2; exit 1; }
printf 'hello world' > msg.txt
[[ $(sha256sum < msg.txt | cut -d' ' -f1) == b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9 ]] || fail sha256
[[ $(md5sum msg.txt | cut -d' ' -f1) == 5eb63bbbe01eeed093cb22bb8f5acdc3 ]] || fail md5
[[ $(sha1sum msg.txt | cut -d' ' -f1) == 2aae6c35c94fcfb415dbe95f408b9ce91ee846ed ]] || fail sha1
[[ $(printf '' | sha512sum | cut -c1-16) == cf83e1357eefb8bd ]] || fail sha512
[[ $(cksum < msg.txt) == "1135714720 11" ]] || fail "cksum $(cksum < msg.txt)"
sha256sum msg.txt > sums.txt
sha256sum -c --quiet sums.txt || fail "sha256sum -c"
echo tampered >> msg.txt
sha256sum -c --quiet sums.txt 2>/dev/null && fail "tamper not detected"

[[ $(printf 'hello world' | base64) == aGVsbG8gd29ybGQ= ]] || fail base64
[[ $(echo aGVsbG8gd29ybGQ= | base64 -d) == "hello world" ]] || fail "base64 -d"
[[ $(printf 'hi' | base32) == NBUQ==== ]] || fail base32
# binary round-trip through base64
head -c 3000 /dev/urandom > rand.bin
base64 -w 76 rand.bin > rand.b64
base64 -d rand.b64 > rand.out
cmp -s rand.bin rand.out || fail "binary round-trip"
[[ $(head -1 rand.b64 | tr -d '\n' | wc -c) == 76 ]] || fail "base64 -w"
# od / hexdump-like output
[[ $(printf 'AB\n' | od -An -tx1 | tr -d ' ') == 41420a ]] || fail "od -tx1"
[[ $(printf 'A\tB' | od -c | head -1 | tr -s ' ') == "0000000 A \\t B" ]] || fail "od -c"
# bytes to hex and back in pure bash
hex=""; s="Zz9"
for (( i=0; i<${#s}; i++ )); do printf -v h '%02x' "'${s:i:1}"; hex+=$h; done
[[ $hex == 5a7a39 ]] || fail "to hex"
back=$(printf "$(sed 's/../\\x&/g' <<<"$hex")")
[[ $back == Zz9 ]] || fail "from hex"
# UTF-8 bytes vs characters
u='héllo'
[[ $(printf %s "$u" | wc -c) == 6 && $(printf %s "$u" | wc -m) == 5 ]] || fail "utf-8 counts"
rm -f msg.txt sums.txt rand.bin rand.b64 rand.out
echo OK
