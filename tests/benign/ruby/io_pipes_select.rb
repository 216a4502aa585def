# Low-level IO: IO.pipe, IO.select, nonblocking reads, sysread/syswrite, dup/reopen, fcntl, IO.copy_stream, binmode, readpartial.
require "fcntl"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

r, w = IO.pipe
w.write("hello")
check IO.select([r], nil, nil, 1) == [[r], [], []], "select readable"
check r.read_nonblock(100) == "hello", "read_nonblock"
check r.read_nonblock(10, exception: false) == :wait_readable, "would block"
check IO.select([r], nil, nil, 0.01).nil?, "select timeout"
w.syswrite("abc")
check r.sysread(3) == "abc", "sysread/syswrite"
w.close
check r.read == "" && r.eof?, "eof after close"
r.close

r, w = IO.pipe
w.sync = true
writer = Thread.new { 100.times { |i| w.puts "msg #{i}" }; w.close }
lines = r.each_line.count
writer.join
check lines == 100, "threaded writer"

r, w = IO.pipe
big = "z" * 300_000
t = Thread.new { w.write(big); w.close }
got = +""
loop do
  ready, = IO.select([r], nil, nil, 2)
  break unless ready
  chunk = r.readpartial(65_536) rescue break
  got << chunk
end
t.join
check got == big, "large transfer through select/readpartial (#{got.size})"

r, w = IO.pipe
check (w.fcntl(Fcntl::F_GETFL) & Fcntl::O_ACCMODE) == Fcntl::O_WRONLY && r.fileno > 2, "fcntl"
w.close_on_exec = true
check w.close_on_exec?, "close_on_exec"
filled = 0
begin
  loop { filled += w.write_nonblock("x" * 4096) }
rescue IO::WaitWritable
end
check filled >= 4096 && IO.select(nil, [w], nil, 0).nil?, "pipe full (#{filled} bytes)"
r.close
w.close

File.write("src.bin", Random.new(5).bytes(100_000))
copied = IO.copy_stream("src.bin", "dst.bin")
check copied == 100_000 && File.binread("dst.bin") == File.binread("src.bin"), "copy_stream"
File.open("src.bin", "rb") do |f|
  check f.binmode? && f.external_encoding == Encoding::ASCII_8BIT && f.pread(4, 10) == File.binread("src.bin", 4, 10), "binmode/pread"
end
saved = $stdout.dup
File.open("redir.txt", "w") do |f|
  $stdout.reopen(f)
  puts "into the file"
  $stdout.flush
end
$stdout.reopen(saved)
check File.read("redir.txt") == "into the file\n", "reopen stdout"
fd = IO.sysopen("redir.txt", Fcntl::O_RDONLY)
io = IO.for_fd(fd, autoclose: true)
check io.readline == "into the file\n" && io.stat.size == 14, "for_fd"
io.close
check $stdin.tty? == false && $stdin.read_nonblock(1, exception: false).then { [nil, :wait_readable].include?(_1) || _1 == "" } , "stdin"
check $stdout.fileno == 1 && $stderr.fileno == 2 && $stderr.sync, "std streams"
File.delete("src.bin", "dst.bin", "redir.txt")
puts "OK"
