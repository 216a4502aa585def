# Close stdout (file descriptor 1), then keep working on stderr.
exec 1>&-
echo "stderr works" >&2
exit 0
