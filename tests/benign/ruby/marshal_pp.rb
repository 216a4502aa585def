# Serialization and inspection: Marshal deep copies and files, custom marshal_dump, pp/PP to strings, inspect, ObjectSpace-free dumps.
require "pp"
require "stringio"
def check(cond, msg) = (raise "FAIL: #{msg}" unless cond)

Node = Struct.new(:name, :children)
tree = Node.new("root", [Node.new("a", []), Node.new("b", [Node.new("c", [])])])
copy = Marshal.load(Marshal.dump(tree))
check copy == tree && !copy.equal?(tree) && !copy.children.equal?(tree.children), "deep copy"
copy.children[0].name = "changed"
check tree.children[0].name == "a", "independent copy"
data = { sym: :x, str: "é", int: 2**80, float: 1.5, range: (1..3), nil: nil, time: Time.at(0).utc, arr: [1, [2]] }
check Marshal.load(Marshal.dump(data)) == data, "core types round-trip"
shared = "same"
pair = Marshal.load(Marshal.dump([shared, shared]))
check pair[0].equal?(pair[1]), "shared references kept"
cyclic = []
cyclic << cyclic
back = Marshal.load(Marshal.dump(cyclic))
check back[0].equal?(back), "cycles"

class Account
  attr_reader :id, :balance, :cache
  def initialize(id, balance) = (@id, @balance, @cache = id, balance, { expensive: true })
  def marshal_dump = [@id, @balance]
  def marshal_load(a) = (@id, @balance = a)
end
acc = Marshal.load(Marshal.dump(Account.new(7, 100)))
check acc.id == 7 && acc.balance == 100 && acc.cache.nil?, "custom marshal_dump"
check (Marshal.dump(proc {}) rescue TypeError) == TypeError && (Marshal.dump(Mutex.new) rescue TypeError) == TypeError, "unmarshalable"
File.binwrite("state.bin", Marshal.dump(data))
check Marshal.load(File.binread("state.bin"))[:int] == 2**80, "to and from a file"
File.open("state.bin", "rb") { |f| check Marshal.load(f)[:sym] == :x, "load from IO" }

big = { "users" => (1..30).map { |i| { "id" => i, "name" => "user#{i}", "roles" => %w[a b] } } }
out = +""
PP.pp(big, out, 60)
check out.lines.size > 30 && out.lines.all? { _1.chomp.size <= 60 }, "PP width"
sio = StringIO.new
PP.pp({ a: 1 }, sio)
check sio.string == "{:a=>1}\n", "PP to IO"
check big.pretty_inspect.start_with?("{\"users\"=>") && [1, "two", :three, nil].inspect == '[1, "two", :three, nil]', "inspect"
class Secret
  def initialize = @pw = "hunter2"
  def inspect = "#<Secret [redacted]>"
end
check [Secret.new].inspect == "[#<Secret [redacted]>]" && Secret.new.to_s.start_with?("#<Secret"), "custom inspect"
captured = StringIO.new
$stdout = captured
pp({ x: [1, 2] })
p :sym, "s"
$stdout = STDOUT
check captured.string == "{:x=>[1, 2]}\n:sym\n\"s\"\n", "pp/p capture"
File.delete("state.bin")
puts "OK"
