# Fork bomb: parent and children all keep forking forever; the first EAGAIN is reported once per process.
# Process.fork never raises Errno::EAGAIN (Ruby sleeps 1 s and retries the fork forever),
# so fork(2) is called through Fiddle, where the failure and its errno are visible.
require "fiddle"
fork = Fiddle::Function.new(Fiddle::Handle::DEFAULT["fork"], [], Fiddle::TYPE_INT)
said = false
loop do
  next unless fork.call.negative?
  next if said || Fiddle.last_error != Errno::EAGAIN::Errno
  said = true
  $stdout.syswrite("fork EAGAIN\n")
end
