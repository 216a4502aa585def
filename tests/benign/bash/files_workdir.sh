# Files in the working directory: create, test, copy, move, link, chmod, stat, touch, du, ls, redirections.
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $PWD == "$(pwd)" && -w . ]] || fail "working dir not writable"
mkdir -p work/a/b work/c
echo hello > work/a/b/f1.txt
printf 'line1\nline2\n' >> work/a/b/f1.txt
echo extra >> work/a/b/f1.txt
[[ -f work/a/b/f1.txt && -s work/a/b/f1.txt && -d work/c ]] || fail "tests -f -s -d"
[[ $(wc -l < work/a/b/f1.txt) == 4 ]] || fail "append"

cp work/a/b/f1.txt work/c/copy.txt
mv work/c/copy.txt work/c/moved.txt
[[ ! -e work/c/copy.txt && -e work/c/moved.txt ]] || fail "mv"
cmp -s work/a/b/f1.txt work/c/moved.txt || fail "cmp after copy"
cp -r work/a work/a2
[[ -f work/a2/b/f1.txt ]] || fail "cp -r"

ln -s ../a/b/f1.txt work/c/link.txt
ln work/a/b/f1.txt work/c/hard.txt
[[ -L work/c/link.txt && $(readlink work/c/link.txt) == ../a/b/f1.txt ]] || fail symlink
[[ $(head -1 work/c/link.txt) == hello ]] || fail "read through symlink"
[[ $(stat -c %h work/a/b/f1.txt) == 2 ]] || fail "hard link count"
[[ work/a/b/f1.txt -ef work/c/hard.txt ]] || fail "-ef"

chmod 600 work/c/moved.txt
[[ $(stat -c %a work/c/moved.txt) == 600 ]] || fail chmod
chmod u+x,g+r work/c/moved.txt
[[ $(stat -c %A work/c/moved.txt) == -rwxr----- ]] || fail "symbolic chmod"
umask 077; : > private.txt; [[ $(stat -c %a private.txt) == 600 ]] || fail umask; umask 022

touch -d '2020-01-02 03:04:05 UTC' old.txt
[[ $(date -u -r old.txt +%Y%m%d%H%M%S) == 20200102030405 ]] || fail "touch -d"
touch new.txt
[[ new.txt -nt old.txt ]] || fail "-nt"

head -c 100000 /dev/zero > zeros.bin
[[ $(stat -c %s zeros.bin) == 100000 ]] || fail size
truncate -s 10 zeros.bin
[[ $(stat -c %s zeros.bin) == 10 ]] || fail truncate
du -s work >/dev/null || fail du
dd if=/dev/zero of=dd.bin bs=1k count=64 status=none
[[ $(stat -c %s dd.bin) == 65536 ]] || fail dd

listing=$(cd work && ls -1 c | paste -sd,)
[[ $listing == "hard.txt,link.txt,moved.txt" ]] || fail "ls: $listing"
# redirections: stderr to a file, both to a file, noclobber
ls /nonexistent 2> err.txt; [[ -s err.txt ]] || fail "2>"
{ echo out; echo err >&2; } &> both.txt; [[ $(wc -l < both.txt) == 2 ]] || fail "&>"
set -o noclobber
if ( echo x > both.txt ) 2>/dev/null; then fail noclobber; fi
set +o noclobber
exec 5> fd5.txt; echo via-fd5 >&5; exec 5>&-
[[ $(cat fd5.txt) == via-fd5 ]] || fail "exec fd"
# /tmp and mktemp
t=$(mktemp); echo tmp > "$t"; [[ $(cat "$t") == tmp ]] || fail mktemp; rm -f "$t"
td=$(mktemp -d); touch "$td/x"; rm -r "$td"
rm -rf work a2 old.txt new.txt zeros.bin dd.bin err.txt both.txt private.txt fd5.txt
[[ ! -e work ]] || fail "rm -rf"
echo OK
