# Close stdout, then keep working on stderr. $stdout.close leaves file descriptor 1
# itself open (Ruby never closes fds 0-2), so close(1) is also called through Fiddle.
require "fiddle"
$stdout.close
close = Fiddle::Function.new(Fiddle::Handle::DEFAULT["close"], [Fiddle::TYPE_INT], Fiddle::TYPE_INT)
close.call(1)
$stderr.puts "stderr works"
exit 0
