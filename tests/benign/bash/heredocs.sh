# Here-documents and here-strings: expansion, quoted delimiters, <<- tab stripping, feeding commands.
fail() { echo "FAIL: $*" >&2; exit 1; }
name=World
a=$(cat <<EOT
Hello, $name!
Sum: $((2 + 3))
Cmd: $(echo nested)
EOT
)
[[ $a == $'Hello, World!\nSum: 5\nCmd: nested' ]] || fail "expanding heredoc: $a"

b=$(cat <<'EOT'
Literal $name and $(not run) and `nor this`
EOT
)
[[ $b == 'Literal $name and $(not run) and `nor this`' ]] || fail "quoted heredoc"

c=$(cat <<-EOT
	indented with tabs
		two tabs
	EOT
)
[[ $c == $'indented with tabs\ntwo tabs' ]] || fail "<<- strips tabs: $c"

# heredoc into a while loop, into a file, into awk
total=0
while read -r item qty; do (( total += qty )); done <<EOT
apples 3
pears 4
plums 5
EOT
(( total == 12 )) || fail "heredoc read loop"

cat > config.ini <<EOT
[server]
host = localhost
port = 8080
EOT
port=$(awk -F' = ' '$1 == "port" {print $2}' config.ini)
[[ $port == 8080 ]] || fail "heredoc to file"

s=$(awk '{ s += $1 } END { print s }' <<'EOT'
1.5
2.5
EOT
)
[[ $s == 4 ]] || fail "heredoc to awk"

# here-strings
read -r first rest <<<"alpha beta gamma"
[[ $first == alpha && $rest == "beta gamma" ]] || fail here-string
[[ $(wc -l <<<"one line") == 1 ]] || fail "here-string adds newline"
[[ $(tr a-z A-Z <<<"$name") == WORLD ]] || fail "here-string to tr"
# heredoc as a bash script for a child bash
out=$(bash <<'EOT'
f() { echo "child $1"; }
f ok
EOT
)
[[ $out == "child ok" ]] || fail "heredoc to bash"
rm -f config.ini
echo OK
