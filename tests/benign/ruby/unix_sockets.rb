# Local IPC without network: UNIXSocket.pair, a UNIXServer in the working directory with client threads, socketpair datagrams, send_io.
require "socket"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

a, b = UNIXSocket.pair
a.write("ping")
check b.recv(4) == "ping", "pair stream"
b.puts "pong"
check a.gets == "pong\n", "pair lines"
a.close
check b.read == "", "EOF after close"
b.close

path = File.join(Dir.pwd, "test.sock")
File.delete(path) if File.exist?(path)
server = UNIXServer.new(path)
check File.socket?(path), "socket file"
acceptor = Thread.new do
  3.times.map do
    conn = server.accept
    req = conn.gets.chomp
    conn.puts req.reverse
    conn.close
    req
  end
end
replies = %w[alpha beta gamma].map do |word|
  UNIXSocket.open(path) { |c| c.puts word; c.gets.chomp }
end
check replies == %w[ahpla ateb ammag] && acceptor.value == %w[alpha beta gamma], "server round-trips"
server.close
File.delete(path)
check (UNIXSocket.new(path) rescue Errno::ENOENT) == Errno::ENOENT, "connect to a removed socket"

s1, s2 = Socket.pair(:UNIX, :DGRAM)
s1.send("datagram one", 0)
s1.send("two", 0)
check s2.recv(100) == "datagram one" && s2.recv(100) == "two", "datagrams keep boundaries"
s1.close
s2.close

# pass an open file descriptor to another process over a socket
File.write("shared.txt", "passed by descriptor")
parent, child = UNIXSocket.pair
pid = fork do
  parent.close
  io = child.recv_io
  child.write(io.read)
  child.close
  exit!(0)
end
child.close
File.open("shared.txt") { |f| parent.send_io(f) }
check parent.read == "passed by descriptor", "send_io/recv_io"
Process.wait(pid)
parent.close
File.delete("shared.txt")
check Socket.gethostname.is_a?(String), "gethostname"
check Addrinfo.unix("/x").unix_path == "/x" && Socket.unpack_sockaddr_un(Socket.pack_sockaddr_un("/y")) == "/y", "sockaddr helpers"
puts "OK"
